import { isIP } from 'node:net';
import { isDnsName } from 'src/common/validation/dns';
import type { DeliveryServiceInput } from './delivery-service.input';
import { tlsVersionsProblem } from './delivery-service-tls-versions';

/**
 * The rules of a delivery service body (docs/original-behaviour.md#deliveryservices), as pure functions.
 * Messages are the original's (ozzo-validation wording, `'<field>' <problem>`); several are joined with
 * `, ` in a fixed order (docs/decisions.md#d7): the per-field rules in the order of the fields of the request
 * schema, then the cross-field rules, then the `type fields: ` group, then required capabilities.
 */

export const MIN_RANGE_SLICE_BLOCK_SIZE = 262144;
export const MAX_RANGE_SLICE_BLOCK_SIZE = 33554432;
export const ACTIVE_STATES = ['ACTIVE', 'INACTIVE', 'PRIMED'] as const;
export const SIGNING_ALGORITHMS = ['url_sig', 'uri_signing'] as const;
const RESERVED_QUERY_PARAMS = ['format', 'trred', 'fakeClientIpAddress'];
const COUNTRY_CODE = /^[A-Z]+$/;
const ORG_SERVER_FQDN = /^(https?):\/\/([^:]+)(:(\d+))?$/;

export const ORG_SERVER_FQDN_MESSAGE =
  'must start with http:// or https:// and be followed by a valid hostname with an optional port (no trailing slash)';

/** The type of the body's `typeId`, as the database has it (undefined when there is none). */
export interface DsTypeInfo {
  name: string;
  useInTable: string;
}

export const isHttpType = (name: string): boolean => /^HTTP/.test(name);
export const isDnsType = (name: string): boolean => /^DNS/.test(name);
export const isSteeringType = (name: string): boolean => /^(STEERING|CLIENT_STEERING)$/.test(name);
/** Types whose delivery services may hold SSL keys (lib/go-tc DSType.HasSSLKeys). */
export const hasSslKeys = (name: string): boolean => /^(HTTP|DNS|STEERING|CLIENT_STEERING)/.test(name);

const present = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;
const blankString = (v: string | null | undefined): boolean => !present(v) || v === '';

/**
 * The original's sanitising (docs/original-behaviour.md#deliveryservices), in place: country codes
 * upper-cased without spaces, profileId -1 → none, blank header rewrites → none, empty routing name →
 * `cdn`, `signed` and `signingAlgorithm` made consistent, defaults for maxOriginConnections,
 * deepCachingType and maxRequestHeaderBytes.
 */
export function sanitize(ds: DeliveryServiceInput): DeliveryServiceInput {
  if (ds.geoLimitCountries) {
    ds.geoLimitCountries = ds.geoLimitCountries.map((cc) => cc.replace(/ /g, '').toUpperCase());
  }
  if (ds.profileId === -1) {
    ds.profileId = null;
  }
  for (const key of [
    'edgeHeaderRewrite',
    'midHeaderRewrite',
    'firstHeaderRewrite',
    'innerHeaderRewrite',
    'lastHeaderRewrite',
  ] as const) {
    const value = ds[key];
    if (present(value) && value.trim() === '') {
      ds[key] = null;
    }
  }
  if (blankString(ds.routingName)) {
    ds.routingName = 'cdn';
  }
  if (ds.signed === true && blankString(ds.signingAlgorithm)) {
    ds.signingAlgorithm = 'url_sig';
  }
  if (ds.signingAlgorithm === '') {
    ds.signingAlgorithm = null;
  }
  ds.signed = present(ds.signingAlgorithm);
  if (!present(ds.maxOriginConnections) || ds.maxOriginConnections < 0) {
    ds.maxOriginConnections = 0;
  }
  const deep = (ds.deepCachingType ?? '').toUpperCase();
  ds.deepCachingType =
    deep === '' ? 'NEVER' : deep === 'NEVER' || deep === 'ALWAYS' ? deep : ds.deepCachingType;
  if (!present(ds.maxRequestHeaderBytes)) {
    ds.maxRequestHeaderBytes = 0;
  }
  return ds;
}

/** The country codes that count: a list holding only empty codes is no list at all. */
export function countryCodes(ds: DeliveryServiceInput): string[] {
  return (ds.geoLimitCountries ?? []).filter((cc) => cc !== '');
}

/** `protocol://host[:port]` of orgServerFqdn, or undefined when it is not one. */
export function parseOrgServerFqdn(
  value: string,
): { protocol: string; fqdn: string; port: number | null } | undefined {
  const match = ORG_SERVER_FQDN.exec(value);
  if (!match || match[2] === '') {
    return undefined;
  }
  return { protocol: match[1].toLowerCase(), fqdn: match[2], port: match[4] ? Number(match[4]) : null };
}

export function isValidOrgServerFqdn(value: string): boolean {
  const parsed = parseOrgServerFqdn(value);
  if (!parsed) {
    return false;
  }
  const hostOk = isIP(parsed.fqdn) !== 0 || isDnsName(parsed.fqdn);
  const portOk = parsed.port === null || (parsed.port >= 1 && parsed.port <= 65535);
  return hostOk && portOk;
}

type Rule = () => string | undefined;

/** The first problem of a field, as ozzo-validation reports one per field. */
function firstOf(...rules: Rule[]): string | undefined {
  for (const rule of rules) {
    const problem = rule();
    if (problem !== undefined) {
      return problem;
    }
  }
  return undefined;
}

function fieldErrors(fields: [string, string | undefined][]): string[] {
  return fields
    .filter(([, problem]) => problem !== undefined)
    .map(([name, problem]) => `'${name}' ${problem}`);
}

const length = (v: string | null | undefined, min: number, max: number): string | undefined =>
  present(v) && v !== '' && (v.length < min || v.length > max)
    ? `the length must be between ${min} and ${max}`
    : undefined;

/** The per-field rules of the original's Validate, in schema order. */
/**
 * Where this service's rules differ from the original's by the user's specification:
 * `geoLimitCountriesPaired`, `geoLimitCountries` given exactly when `geoLimit` is not 0 (the original
 * has no such rule; WIRE_COMPAT=traffic-ops drops it, docs/decisions.md#d38).
 */
export interface DeliveryServiceRules {
  geoLimitCountriesPaired: boolean;
}

export const SPECIFIED_RULES: DeliveryServiceRules = { geoLimitCountriesPaired: true };

function generalErrors(ds: DeliveryServiceInput, create: boolean, rules: DeliveryServiceRules): string[] {
  return fieldErrors([
    ['cdnId', !ds.cdnId ? 'cannot be blank' : undefined],
    [
      'deepCachingType',
      ds.deepCachingType === 'NEVER' || ds.deepCachingType === 'ALWAYS'
        ? undefined
        : "must be one of 'NEVER' or 'ALWAYS'",
    ],
    [
      'displayName',
      firstOf(
        () => (blankString(ds.displayName) ? 'cannot be blank' : undefined),
        () => length(ds.displayName, 1, 48),
      ),
    ],
    [
      'dscp',
      firstOf(
        () => (!present(ds.dscp) ? 'is required' : undefined),
        () => (ds.dscp! < 0 ? 'must be no less than 0' : undefined),
      ),
    ],
    ['geoLimit', !present(ds.geoLimit) ? 'is required' : undefined],
    [
      'geoLimitCountries',
      !rules.geoLimitCountriesPaired
        ? undefined
        : present(ds.geoLimit) && ds.geoLimit !== 0 && countryCodes(ds).length === 0
          ? 'cannot be blank'
          : ds.geoLimit === 0 && countryCodes(ds).length > 0
            ? 'must be blank'
            : undefined,
    ],
    ['geoProvider', !present(ds.geoProvider) ? 'is required' : undefined],
    [
      'httpByPassFqdn',
      !blankString(ds.httpBypassFqdn) && !isDnsName(ds.httpBypassFqdn)
        ? 'must be a valid hostname'
        : undefined,
    ],
    ['logsEnabled', !present(ds.logsEnabled) ? 'is required' : undefined],
    ['regionalGeoBlocking', !present(ds.regionalGeoBlocking) ? 'is required' : undefined],
    [
      'remapText',
      present(ds.remapText) && /[\r\n]/.test(ds.remapText) ? 'cannot contain line breaks' : undefined,
    ],
    [
      'routingName',
      firstOf(
        () => (!isDnsName(ds.routingName) ? 'must be a valid hostname' : undefined),
        () => (ds.routingName!.includes('.') ? 'cannot contain periods' : undefined),
        () => length(ds.routingName, 1, 48),
      ),
    ],
    [
      'signingAlgorithm',
      present(ds.signingAlgorithm) && !(SIGNING_ALGORITHMS as readonly string[]).includes(ds.signingAlgorithm)
        ? 'must be a valid value'
        : undefined,
    ],
    ['tenantId', create && !ds.tenantId ? 'cannot be blank' : undefined],
    ['tlsVersions', tlsVersionsProblem(ds.tlsVersions)],
    [
      'typeId',
      firstOf(
        () => (!ds.typeId ? 'cannot be blank' : undefined),
        () => (ds.typeId! < 1 ? 'must be no less than 1' : undefined),
      ),
    ],
    [
      'xmlId',
      firstOf(
        () => (blankString(ds.xmlId) ? 'cannot be blank' : undefined),
        () => (/\s/.test(ds.xmlId!) ? 'cannot contain spaces' : undefined),
        () => (ds.xmlId!.includes('.') ? 'cannot contain periods' : undefined),
        () => length(ds.xmlId, 1, 48),
      ),
    ],
  ]);
}

function requiredIfType(patterns: ((name: string) => boolean)[], typeName: string, value: unknown) {
  const missing = value === undefined || value === null || value === '';
  return missing && patterns.some((p) => p(typeName)) ? `is required if type is '${typeName}'` : undefined;
}

/** The `type fields: ` group of the original (validateTypeFields); undefined when all is well. */
export function typeFieldsError(ds: DeliveryServiceInput, type: DsTypeInfo | undefined): string | undefined {
  if (!type) {
    return 'type not found';
  }
  if (type.useInTable !== 'deliveryservice') {
    return 'type is not a valid deliveryservice type';
  }
  const name = type.name;
  const httpOrDns = [isDnsType, isHttpType];
  const routed = [isSteeringType, isDnsType, isHttpType];
  const lat = 'Must be a floating point number within the range +-90';
  const long = 'Must be a floating point number within the range +-180';
  const errors = fieldErrors([
    [
      'consistentHashQueryParams',
      firstOf(
        () =>
          (ds.consistentHashQueryParams ?? []).length > 0 && !isHttpType(name)
            ? `consistentHashQueryParams not allowed for '${name}' deliveryservice type`
            : undefined,
        () => {
          const reserved = (ds.consistentHashQueryParams ?? []).find((p) =>
            RESERVED_QUERY_PARAMS.includes(p),
          );
          return reserved === undefined
            ? undefined
            : `'${reserved}' cannot be used in consistent hashing, because it is reserved for use by Traffic Router`;
        },
      ),
    ],
    [
      'initialDispersion',
      firstOf(
        () => requiredIfType([isHttpType], name, ds.initialDispersion),
        () =>
          present(ds.initialDispersion) && ds.initialDispersion <= 0
            ? 'must be greater than zero'
            : undefined,
      ),
    ],
    ['ipv6RoutingEnabled', requiredIfType(routed, name, ds.ipv6RoutingEnabled)],
    [
      'maxRequestHeaderBytes',
      present(ds.maxRequestHeaderBytes) &&
      (ds.maxRequestHeaderBytes < 0 || ds.maxRequestHeaderBytes > 2147483647)
        ? 'maxRequestHeaderBytes must be a valid non negative value between 0 and 2147483647'
        : undefined,
    ],
    [
      'missLat',
      firstOf(
        () => requiredIfType(httpOrDns, name, ds.missLat),
        () => (present(ds.missLat) && Math.abs(ds.missLat) > 90 ? lat : undefined),
      ),
    ],
    [
      'missLong',
      firstOf(
        () => requiredIfType(httpOrDns, name, ds.missLong),
        () => (present(ds.missLong) && Math.abs(ds.missLong) > 180 ? long : undefined),
      ),
    ],
    ['multiSiteOrigin', requiredIfType(httpOrDns, name, ds.multiSiteOrigin)],
    [
      'orgServerFqdn',
      firstOf(
        () => requiredIfType(httpOrDns, name, ds.orgServerFqdn),
        () =>
          !blankString(ds.orgServerFqdn) && !isValidOrgServerFqdn(ds.orgServerFqdn!)
            ? ORG_SERVER_FQDN_MESSAGE
            : undefined,
      ),
    ],
    ['protocol', requiredIfType(routed, name, ds.protocol)],
    ['qstringIgnore', requiredIfType(httpOrDns, name, ds.qstringIgnore)],
    ['rangeRequestHandling', requiredIfType(httpOrDns, name, ds.rangeRequestHandling)],
    ['rangeSliceBlockSize', rangeSliceBlockSizeProblem(ds)],
    [
      'tlsVersions',
      (ds.tlsVersions ?? []).length > 0 && isSteeringType(name)
        ? "must be 'null' for STEERING-Type and CLIENT_STEERING-Type Delivery Services"
        : undefined,
    ],
    [
      'topology',
      present(ds.topology) && isSteeringType(name)
        ? 'steering deliveryservice types cannot be assigned to a topology'
        : undefined,
    ],
  ]);
  return errors.length > 0 ? errors.join(', ') : undefined;
}

/** Set and required exactly when rangeRequestHandling is 3 (the slice plugin), within its bounds. */
function rangeSliceBlockSizeProblem(ds: DeliveryServiceInput): string | undefined {
  const size = ds.rangeSliceBlockSize;
  if (ds.rangeRequestHandling === 3) {
    if (!size) {
      return 'cannot be blank';
    }
    if (size < MIN_RANGE_SLICE_BLOCK_SIZE) {
      return `must be no less than ${MIN_RANGE_SLICE_BLOCK_SIZE}`;
    }
    if (size > MAX_RANGE_SLICE_BLOCK_SIZE) {
      return `must be no greater than ${MAX_RANGE_SLICE_BLOCK_SIZE}`;
    }
    return undefined;
  }
  return present(size)
    ? 'rangeSliceBlockSize can only be set if the rangeRequestHandling is set to 3 (Use the Slice Plugin)'
    : undefined;
}

/**
 * Every problem of a sanitised body, in the fixed order described above; empty when it is valid.
 * `create` adds the POST-only rule that a tenant is given.
 */
export function validateDeliveryService(
  ds: DeliveryServiceInput,
  type: DsTypeInfo | undefined,
  create = false,
  knownCapabilities: ReadonlySet<string> = new Set(),
  rules: DeliveryServiceRules = SPECIFIED_RULES,
): string[] {
  const errors = generalErrors(ds, create, rules);
  if (countryCodes(ds).some((cc) => !COUNTRY_CODE.test(cc))) {
    errors.push('country codes can only contain alphabetical characters');
  }
  if (present(ds.topology) && (present(ds.edgeHeaderRewrite) || present(ds.midHeaderRewrite))) {
    errors.push(
      'cannot set edgeHeaderRewrite or midHeaderRewrite while a Topology is assigned. Use firstHeaderRewrite, innerHeaderRewrite, and/or lastHeaderRewrite instead',
    );
  }
  if (
    !present(ds.topology) &&
    (present(ds.firstHeaderRewrite) || present(ds.innerHeaderRewrite) || present(ds.lastHeaderRewrite))
  ) {
    errors.push(
      'cannot set firstHeaderRewrite, innerHeaderRewrite, or lastHeaderRewrite unless this delivery service is assigned to a Topology. Use edgeHeaderRewrite and/or midHeaderRewrite instead',
    );
  }
  const typeFields = typeFieldsError(ds, type);
  if (typeFields !== undefined) {
    errors.push(`type fields: ${typeFields}`);
  }
  // Every capability named must exist (`knownCapabilities`: those of them that do).
  const missing = [...new Set(ds.requiredCapabilities ?? [])].filter((name) => !knownCapabilities.has(name));
  if (missing.length > 0) {
    errors.push(`required capabilities: the following capabilities do not exist: ${missing.join(',')}`);
  }
  return errors;
}
