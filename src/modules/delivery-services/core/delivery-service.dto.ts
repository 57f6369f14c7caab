import { applyDecorators } from '@nestjs/common';
import { IsArray, IsNumber, IsOptional, IsString, ValidateBy, ValidateIf } from 'class-validator';
import { BIGINT } from 'src/common/validation/integers';
import { OptionalBoolean, OptionalInt, OptionalString } from 'src/common/validation/rules';
import type { ApiVersion } from 'src/common/versioning/api-version';
import type {
  DeliveryServiceInput,
  DeliveryServiceWrite,
  LegacyFields,
} from 'src/modules/delivery-services/core/delivery-service.input';

/**
 * Bodies of POST /deliveryservices and PUT /deliveryservices/{id}, one class per API version.
 * These classes check JSON types only (every field is optional and nullable here) and that integers
 * fit their columns; the rules of the original, with its `invalid request: ` wording, are in
 * delivery-service.validation.ts.
 */
const TEXT = 65535;

const StringList = (): PropertyDecorator =>
  applyDecorators(
    IsOptional(),
    IsArray({ message: 'must be an array of strings' }),
    IsString({ each: true, message: 'must be an array of strings' }),
  );

const OptionalNumber = (): PropertyDecorator =>
  applyDecorators(
    IsOptional(),
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number' }),
  );

/** A string, or on API 4.0+ also a list of strings (lib/go-tc GeoLimitCountriesType). */
const StringOrStringList = (): PropertyDecorator =>
  ValidateBy({
    name: 'isStringOrStringList',
    validator: {
      validate: (value: unknown) =>
        value === undefined ||
        value === null ||
        typeof value === 'string' ||
        (Array.isArray(value) && value.every((v) => typeof v === 'string')),
      defaultMessage: () => 'must be a string or an array of strings',
    },
  });

class DeliveryServiceBodyBase {
  @OptionalBoolean() anonymousBlockingEnabled?: boolean | null;
  @OptionalInt() ccrDnsTtl?: number | null;
  @OptionalInt() cdnId?: number | null;
  @OptionalString() cdnName?: string | null;
  @OptionalString() checkPath?: string | null;
  @StringList() consistentHashQueryParams?: string[] | null;
  @OptionalString(1024) consistentHashRegex?: string | null;
  @OptionalString() deepCachingType?: string | null;
  @OptionalString() displayName?: string | null;
  @OptionalString() dnsBypassCname?: string | null;
  @OptionalString(64) dnsBypassIp?: string | null;
  @OptionalString(64) dnsBypassIp6?: string | null;
  @OptionalInt() dnsBypassTtl?: number | null;
  @OptionalInt() dscp?: number | null;
  @OptionalBoolean() ecsEnabled?: boolean | null;
  @OptionalString(TEXT) edgeHeaderRewrite?: string | null;
  @OptionalString(TEXT) firstHeaderRewrite?: string | null;
  @OptionalInt() fqPacingRate?: number | null;
  @OptionalInt() geoLimit?: number | null;
  @OptionalString(1024) geoLimitRedirectURL?: string | null;
  @OptionalInt() geoProvider?: number | null;
  @OptionalInt() globalMaxMbps?: number | null;
  @OptionalInt() globalMaxTps?: number | null;
  @OptionalString() httpBypassFqdn?: string | null;
  @OptionalString() infoUrl?: string | null;
  @OptionalInt() initialDispersion?: number | null;
  @OptionalString(TEXT) innerHeaderRewrite?: string | null;
  @OptionalBoolean() ipv6RoutingEnabled?: boolean | null;
  @OptionalString(TEXT) lastHeaderRewrite?: string | null;
  @OptionalBoolean() logsEnabled?: boolean | null;
  @OptionalString(TEXT) longDesc?: string | null;
  /** Accepted on every version so that 4.0+ can refuse them with the original's text. */
  @OptionalString(TEXT) longDesc1?: string | null;
  @OptionalString(TEXT) longDesc2?: string | null;
  @OptionalInt() maxDnsAnswers?: number | null;
  @OptionalInt() maxOriginConnections?: number | null;
  /** The original's own rule bounds it to its column (0 .. 2^31-1), with its own text. */
  @OptionalInt({ column: BIGINT }) maxRequestHeaderBytes?: number | null;
  @OptionalString(TEXT) midHeaderRewrite?: string | null;
  @OptionalNumber() missLat?: number | null;
  @OptionalNumber() missLong?: number | null;
  @OptionalBoolean() multiSiteOrigin?: boolean | null;
  @OptionalString() orgServerFqdn?: string | null;
  @OptionalString(1024) originShield?: string | null;
  @OptionalInt() profileId?: number | null;
  @OptionalInt() protocol?: number | null;
  @OptionalInt() qstringIgnore?: number | null;
  @OptionalInt() rangeRequestHandling?: number | null;
  @OptionalInt() rangeSliceBlockSize?: number | null;
  @OptionalString(TEXT) regexRemap?: string | null;
  @OptionalBoolean() regionalGeoBlocking?: boolean | null;
  @OptionalString(TEXT) remapText?: string | null;
  @OptionalString() routingName?: string | null;
  @OptionalString() serviceCategory?: string | null;
  @OptionalBoolean() signed?: boolean | null;
  @OptionalString() signingAlgorithm?: string | null;
  @OptionalInt() sslKeyVersion?: number | null;
  @OptionalInt() tenantId?: number | null;
  @OptionalString() topology?: string | null;
  @OptionalString(TEXT) trRequestHeaders?: string | null;
  @OptionalString(TEXT) trResponseHeaders?: string | null;
  @OptionalInt() typeId?: number | null;
  @OptionalString() xmlId?: string | null;
}

/** API 3.x: `active` is a boolean, `geoLimitCountries` a comma-separated string, `cacheurl` exists. */
export class DeliveryServiceV3Body extends DeliveryServiceBodyBase {
  @OptionalBoolean() active?: boolean | null;
  @OptionalString(1024) cacheurl?: string | null;
  @OptionalString(TEXT) geoLimitCountries?: string | null;
}

/** API 4.x: `active` is a boolean; TLS versions; `regional` and required capabilities from 4.1. */
export class DeliveryServiceV4Body extends DeliveryServiceBodyBase {
  @OptionalBoolean() active?: boolean | null;
  @StringOrStringList() geoLimitCountries?: string | string[] | null;
  @StringList() tlsVersions?: string[] | null;
  @OptionalBoolean() regional?: boolean | null;
  @StringList() requiredCapabilities?: string[] | null;
}

/** API 5.0: `active` is the state name (ACTIVE, INACTIVE or PRIMED). */
export class DeliveryServiceV5Body extends DeliveryServiceBodyBase {
  @ValidateIf((_o, v) => v !== undefined && v !== null)
  @IsString({ message: 'must be a string' })
  active?: string | null;
  @StringOrStringList() geoLimitCountries?: string | string[] | null;
  @StringList() tlsVersions?: string[] | null;
  @OptionalBoolean() regional?: boolean | null;
  @StringList() requiredCapabilities?: string[] | null;
}

export type DeliveryServiceBody = DeliveryServiceV3Body | DeliveryServiceV4Body | DeliveryServiceV5Body;

/** The body class of each version (from that version on). */
export const DELIVERY_SERVICE_BODIES = {
  '3.0': DeliveryServiceV3Body,
  '4.0': DeliveryServiceV4Body,
  '5.0': DeliveryServiceV5Body,
};

function countriesOf(value: string | string[] | null | undefined): string[] | null | undefined {
  if (value === undefined || value === null) {
    return value;
  }
  return Array.isArray(value) ? value : value.split(',');
}

/** `active` true → ACTIVE, false → PRIMED, as stored (docs/original-behaviour.md#deliveryservices). */
function activeOf(value: boolean | string | null | undefined): string | null | undefined {
  if (typeof value === 'boolean') {
    return value ? 'ACTIVE' : 'PRIMED';
  }
  return value;
}

/**
 * The version-independent input of a validated body, plus the 3.x-only fields. Fields a version
 * does not know are left undefined (the service keeps or defaults them).
 */
export function toInput(body: DeliveryServiceBody, version: ApiVersion): DeliveryServiceWrite {
  const { longDesc1, longDesc2, ...rest } = body as DeliveryServiceBody & LegacyFields;
  const input: DeliveryServiceInput & LegacyFields = {
    ...(rest as DeliveryServiceInput),
    active: activeOf(body.active),
    geoLimitCountries: countriesOf(body.geoLimitCountries),
  };
  const legacy: LegacyFields = { longDesc1, longDesc2 };
  if (body instanceof DeliveryServiceV3Body) {
    legacy.cacheurl = body.cacheurl;
    delete input.cacheurl;
    if (!version.atLeast('3.1')) {
      delete input.maxRequestHeaderBytes;
    }
  } else if (!version.atLeast('4.1')) {
    delete input.regional;
    delete input.requiredCapabilities;
  }
  return {
    input,
    legacy,
    carries: {
      legacyFields: !version.atLeast('4.0'),
      tlsVersions: version.atLeast('4.0'),
      requiredCapabilities: version.atLeast('4.1'),
      activeState: version.atLeast('5.0'),
    },
  };
}
