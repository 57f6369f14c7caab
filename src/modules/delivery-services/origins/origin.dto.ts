import { applyDecorators } from '@nestjs/common';
import {
  IsDefined,
  IsIP,
  IsNotEmpty,
  IsString,
  Matches,
  Max,
  Min,
  NotEquals,
  ValidateIf,
} from 'class-validator';
import { ColumnInt, OptionalInt, OptionalString, RequiredString } from 'src/common/validation/rules';

/** ozzo-validation's `is.DNSName`. */
const DNS_NAME = /^([a-zA-Z0-9_][a-zA-Z0-9_-]{0,62})(\.[a-zA-Z0-9_][a-zA-Z0-9_-]{0,62})*[._]?$/;
const PORT = 'must be a valid integer between 1 and 65535';

const present = (_o: object, v: unknown): boolean => v !== undefined && v !== null;

/** An optional address: when given, not empty and of its IP version. */
function OptionalAddress(version: 4 | 6): PropertyDecorator {
  return applyDecorators(
    ValidateIf(present),
    IsString({ message: 'must be a string' }),
    IsNotEmpty({ message: 'cannot be blank' }),
    IsIP(version, { message: `must be a valid IPv${version} address` }),
  );
}

/** A required id where 0 counts as blank (ozzo's Required on an int). */
function RequiredId(): PropertyDecorator {
  return applyDecorators(
    IsDefined({ message: 'cannot be blank' }),
    ColumnInt(),
    NotEquals(0, { message: 'cannot be blank' }),
    Min(1, { message: 'must be no less than 1' }),
  );
}

/**
 * Body of POST /origins and PUT /origins?id= on 3.x/4.x (docs/original-behaviour.md#origins), the
 * fields in the order of the original's rules. A null tenant is the tenancy check's 403.
 */
export class OriginV3Dto {
  @OptionalInt({ min: 1 }) cachegroupId?: number | null;
  @OptionalInt({ min: 1 }) coordinateId?: number | null;

  @IsDefined({ message: 'is required' })
  @ColumnInt()
  deliveryServiceId!: number;

  @RequiredString()
  @Matches(DNS_NAME, { message: 'must be a valid DNS name' })
  fqdn!: string;

  @OptionalAddress(6) ip6Address?: string | null;
  @OptionalAddress(4) ipAddress?: string | null;

  @RequiredString()
  @Matches(/^\S*$/, { message: 'cannot contain spaces' })
  name!: string;

  @ValidateIf(present)
  @ColumnInt(undefined, { message: PORT })
  @Min(1, { message: PORT })
  @Max(65535, { message: PORT })
  port?: number | null;

  @OptionalInt({ min: 1 }) profileId?: number | null;

  @RequiredString(5)
  @Matches(/^https?$/i, { message: 'must be http or https' })
  protocol!: string;

  @OptionalInt({ min: 1 }) tenantId?: number | null;

  /** Names the original echoes; they decide nothing. */
  @OptionalString() cachegroup?: string | null;
  @OptionalString() coordinate?: string | null;
  @OptionalString() deliveryService?: string | null;
  @OptionalString() profile?: string | null;
  @OptionalString() tenant?: string | null;
}

/** The 5.0 body: `deliveryServiceId` and `tenantId` are required (0 counts as blank). */
export class OriginV5Dto {
  @OptionalInt({ min: 1 }) cachegroupId?: number | null;
  @OptionalInt({ min: 1 }) coordinateId?: number | null;
  @RequiredId() deliveryServiceId!: number;

  @RequiredString()
  @Matches(DNS_NAME, { message: 'must be a valid DNS name' })
  fqdn!: string;

  @OptionalAddress(6) ip6Address?: string | null;
  @OptionalAddress(4) ipAddress?: string | null;

  @RequiredString()
  @Matches(/^\S*$/, { message: 'cannot contain spaces' })
  name!: string;

  @ValidateIf(present)
  @ColumnInt(undefined, { message: PORT })
  @Min(1, { message: PORT })
  @Max(65535, { message: PORT })
  port?: number | null;

  @OptionalInt({ min: 1 }) profileId?: number | null;

  @RequiredString(5)
  @Matches(/^https?$/i, { message: 'must be http or https' })
  protocol!: string;

  @RequiredId() tenantId!: number;

  @OptionalString() cachegroup?: string | null;
  @OptionalString() coordinate?: string | null;
  @OptionalString() deliveryService?: string | null;
  @OptionalString() profile?: string | null;
  @OptionalString() tenant?: string | null;
}

export const ORIGIN_BODIES = { '3.0': OriginV3Dto, '5.0': OriginV5Dto };
