import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { BIGINT } from 'src/common/validation/integers';
import { BodyKeys } from 'src/common/validation/body-keys';
import {
  ColumnInt,
  OptionalString,
  Pattern,
  RequiredBoolean,
  RequiredInt,
  RequiredString,
} from 'src/common/validation/rules';

const NO_SPACES = /^\S*$/;
const required = { message: 'is required' };

/** `tcpPort` / `httpsPort`: absent, null, or a port number. */
function Port(): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    ValidateIf((_o, value) => value !== undefined && value !== null)(target, key);
    ColumnInt(undefined, { message: 'must be a valid port number' })(target, key);
    Min(1, { message: 'must be a valid port number' })(target, key);
    Max(65535, { message: 'must be a valid port number' })(target, key);
  };
}

export class IpAddressDto {
  @IsDefined({ message: 'cannot be blank' })
  @IsString({ message: 'must be a string' })
  address!: string;

  @IsOptional()
  @IsString({ message: 'must be a string' })
  gateway?: string | null;

  @RequiredBoolean()
  serviceAddress!: boolean;
}

/** A network interface as 3.x writes it. */
export class InterfaceV3Dto {
  @RequiredString()
  name!: string;

  @IsDefined({ message: 'cannot be blank' })
  @IsArray({ message: 'must be an array' })
  @ValidateNested({ each: true })
  @Type(() => IpAddressDto)
  ipAddresses!: IpAddressDto[];

  /** A `bigint` column. */
  @IsOptional()
  @ColumnInt(BIGINT)
  @Min(0, { message: 'must be no less than 0' })
  maxBandwidth?: number | null;

  @IsOptional()
  @IsBoolean({ message: 'must be a boolean' })
  monitor?: boolean;

  /** At least 1280 when set; checked with the other interface rules (server-rules.ts). */
  @IsOptional()
  @ColumnInt()
  mtu?: number | null;
}

/** 4.0 and later name the router port on each interface. */
export class InterfaceV4Dto extends InterfaceV3Dto {
  @OptionalString()
  routerHostName?: string | null;

  @OptionalString()
  routerPortName?: string | null;
}

/** Fields every version writes (docs/original-behaviour.md#servers, the original's validateCommon). */
class ServerCommonDto {
  @RequiredInt()
  cachegroupId!: number;

  @RequiredInt()
  cdnId!: number;

  @RequiredString()
  @Pattern(NO_SPACES, 'cannot contain spaces')
  domainName!: string;

  @RequiredString()
  @Pattern(NO_SPACES, 'cannot contain spaces')
  hostName!: string;

  @Port()
  httpsPort?: number | null;

  @Port()
  tcpPort?: number | null;

  @RequiredInt()
  physLocationId!: number;

  @RequiredInt()
  statusId!: number;

  @RequiredInt()
  typeId!: number;

  @OptionalString() iloIpAddress?: string | null;
  @OptionalString() iloIpGateway?: string | null;
  @OptionalString() iloIpNetmask?: string | null;
  @OptionalString() iloPassword?: string | null;
  @OptionalString() iloUsername?: string | null;
  @OptionalString() mgmtIpAddress?: string | null;
  @OptionalString() mgmtIpGateway?: string | null;
  @OptionalString() mgmtIpNetmask?: string | null;
  @OptionalString() offlineReason?: string | null;
  @OptionalString() rack?: string | null;
  @OptionalString() xmppId?: string | null;
  @OptionalString() xmppPasswd?: string | null;
}

/** Body of POST /servers and PUT /servers/{id} on 4.0 and later. */
export class ServerV4Dto extends ServerCommonDto {
  @IsDefined(required)
  @IsArray({ message: 'must be an array' })
  @IsString({ each: true, message: 'must be a list of profile names' })
  profileNames!: string[];

  @IsDefined({ message: 'cannot be blank' })
  @IsArray({ message: 'must be an array' })
  @ValidateNested({ each: true })
  @Type(() => InterfaceV4Dto)
  interfaces!: InterfaceV4Dto[];
}

/** 3.x: one profile by id, and the router port names on the server. */
export class ServerV3Dto extends ServerCommonDto {
  @RequiredInt()
  profileId!: number;

  @IsDefined({ message: 'cannot be blank' })
  @IsArray({ message: 'must be an array' })
  @ValidateNested({ each: true })
  @Type(() => InterfaceV3Dto)
  interfaces!: InterfaceV3Dto[];

  @OptionalString() routerHostName?: string | null;
  @OptionalString() routerPortName?: string | null;
}

/** The 5.0 names of the fields 4.x names otherwise (lib/go-tc ServerV50 against ServerV40). */
const V5_NAMES: Record<string, string> = {
  cacheGroupID: 'cachegroupId',
  cdnID: 'cdnId',
  physicalLocationID: 'physLocationId',
  profiles: 'profileNames',
  statusID: 'statusId',
  typeID: 'typeId',
};

/**
 * Body of POST /servers and PUT /servers/{id} on 5.0: the 4.x server under the 5.0 names
 * (`cacheGroupID`, `cdnID`, `physicalLocationID`, `profiles`, `statusID`, `typeID`). As the original,
 * which turns it into a 4.x server before validating it, the rules and their texts are the 4.x ones;
 * a 4.x name in a 5.0 body is not read.
 */
@BodyKeys({ rename: V5_NAMES, validatedAs: () => ServerV4Dto })
export class ServerV5Dto extends ServerCommonDto {
  @RequiredInt()
  cacheGroupID!: number;

  @RequiredInt()
  cdnID!: number;

  @RequiredInt()
  physicalLocationID!: number;

  @RequiredInt()
  statusID!: number;

  @RequiredInt()
  typeID!: number;

  @IsDefined(required)
  @IsArray({ message: 'must be an array' })
  @IsString({ each: true, message: 'must be a list of profile names' })
  profiles!: string[];

  @IsDefined({ message: 'cannot be blank' })
  @IsArray({ message: 'must be an array' })
  @ValidateNested({ each: true })
  @Type(() => InterfaceV4Dto)
  interfaces!: InterfaceV4Dto[];
}
