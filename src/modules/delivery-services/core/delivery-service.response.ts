import type { ApiVersion } from 'src/common/versioning/api-version';
import type { DeliveryServiceRow } from './delivery-services.repository';
import { exampleUrls, type MatchListEntry } from './delivery-service-match-list';

/** A delivery service with what the responses show from other tables. */
export interface DeliveryServiceView {
  /** With what it shows of its type, CDN, profile and tenant. */
  ds: DeliveryServiceRow;
  orgServerFqdn: string | null;
  tlsVersions: string[];
  /** From the server-capabilities module's `deliveryservices_required_capability`. */
  requiredCapabilities: string[];
  consistentHashQueryParams: string[];
  matchList: MatchListEntry[];
}

/**
 * The fields every version's delivery service has (lib/go-tc DeliveryServiceV30 … V5), in the wire's
 * order; `active` and `geoLimitCountries` change type with the version.
 */
export interface DeliveryServiceWireBase {
  active: boolean | string;
  anonymousBlockingEnabled: boolean;
  ccrDnsTtl: number | null;
  cdnId: number;
  cdnName: string | null;
  checkPath: string | null;
  consistentHashQueryParams: string[];
  consistentHashRegex: string | null;
  deepCachingType: string;
  displayName: string;
  dnsBypassCname: string | null;
  dnsBypassIp: string | null;
  dnsBypassIp6: string | null;
  dnsBypassTtl: number | null;
  dscp: number;
  ecsEnabled: boolean;
  edgeHeaderRewrite: string | null;
  exampleURLs: string[];
  firstHeaderRewrite: string | null;
  fqPacingRate: number | null;
  geoLimit: number;
  geoLimitCountries: string | string[] | null;
  geoLimitRedirectURL: string | null;
  geoProvider: number | null;
  globalMaxMbps: number | null;
  globalMaxTps: number | null;
  httpBypassFqdn: string | null;
  id: number;
  infoUrl: string | null;
  initialDispersion: number | null;
  innerHeaderRewrite: string | null;
  ipv6RoutingEnabled: boolean;
  lastHeaderRewrite: string | null;
  /** Written in the route's time format by the envelope (docs/decisions.md#d4). */
  lastUpdated: Date;
  logsEnabled: boolean;
  longDesc: string;
  matchList: MatchListEntry[];
  maxDnsAnswers: number | null;
  maxOriginConnections: number | null;
  midHeaderRewrite: string | null;
  missLat: number;
  missLong: number;
  multiSiteOrigin: boolean;
  orgServerFqdn: string | null;
  originShield: string | null;
  profileDescription: string | null;
  profileId: number | null;
  profileName: string | null;
  protocol: number | null;
  qstringIgnore: number | null;
  rangeRequestHandling: number | null;
  rangeSliceBlockSize: number | null;
  regexRemap: string | null;
  regionalGeoBlocking: boolean;
  remapText: string | null;
  routingName: string;
  serviceCategory: string | null;
  signed: boolean;
  signingAlgorithm: string | null;
  sslKeyVersion: number | null;
  tenant: string | null;
  tenantId: number;
  topology: string | null;
  trRequestHeaders: string | null;
  trResponseHeaders: string | null;
  type: string;
  typeId: number;
  xmlId: string;
  maxRequestHeaderBytes?: number;
  tlsVersions?: string[] | null;
  cacheurl?: string | null;
  longDesc1?: string;
  longDesc2?: string;
  regional?: boolean;
  requiredCapabilities?: string[];
}

/** 3.0: `active` a boolean, `geoLimitCountries` comma-separated, `cacheurl`, `longDesc1`/`longDesc2` when set. */
export interface DeliveryServiceV30 extends Omit<
  DeliveryServiceWireBase,
  'maxRequestHeaderBytes' | 'tlsVersions' | 'regional' | 'requiredCapabilities'
> {
  active: boolean;
  geoLimitCountries: string;
  cacheurl: string | null;
}
/** 3.1 adds `maxRequestHeaderBytes`. */
export interface DeliveryServiceV31 extends DeliveryServiceV30 {
  maxRequestHeaderBytes: number;
}
/** 4.0: country codes as a list, `tlsVersions`; no `cacheurl` or long descriptions 1 and 2. */
export interface DeliveryServiceV40 extends Omit<
  DeliveryServiceWireBase,
  'cacheurl' | 'longDesc1' | 'longDesc2' | 'regional' | 'requiredCapabilities'
> {
  active: boolean;
  geoLimitCountries: string[] | null;
  maxRequestHeaderBytes: number;
  tlsVersions: string[] | null;
}
/** 4.1 adds `regional` and `requiredCapabilities`. */
export interface DeliveryServiceV41 extends DeliveryServiceV40 {
  regional: boolean;
  requiredCapabilities: string[];
}
/** 5.0: `active` is the state's name (ACTIVE, PRIMED, INACTIVE). */
export interface DeliveryServiceV50 extends Omit<DeliveryServiceV41, 'active'> {
  active: string;
}
export type DeliveryServiceWire =
  DeliveryServiceV30 | DeliveryServiceV31 | DeliveryServiceV40 | DeliveryServiceV41 | DeliveryServiceV50;

/**
 * A delivery service on the wire, per version (lib/go-tc DeliveryServiceV30/V31/V40/V41/V5):
 * 3.x has `longDesc1`/`longDesc2` (omitted when null), `cacheurl`, a comma-separated
 * `geoLimitCountries` and no `tlsVersions`; 3.1+ `maxRequestHeaderBytes`; 4.0+ `tlsVersions` and a
 * list of country codes; 4.1+ `regional` and `requiredCapabilities`; `active` is a boolean
 * (ACTIVE → true) before 5.0 and the state name on 5.0.
 */
export function toDeliveryServiceResponse(
  view: DeliveryServiceView,
  version: ApiVersion,
): DeliveryServiceWire {
  const { ds } = view;
  const typeName = ds.type?.name ?? '';
  const countries = ds.geoLimitCountries ? ds.geoLimitCountries.split(',') : [];
  const body: DeliveryServiceWireBase = {
    active: version.atLeast('5.0') ? ds.active : ds.active === 'ACTIVE',
    anonymousBlockingEnabled: ds.anonymousBlockingEnabled,
    ccrDnsTtl: ds.ccrDnsTtl,
    cdnId: ds.cdnId,
    cdnName: ds.cdn?.name ?? null,
    checkPath: ds.checkPath,
    consistentHashQueryParams: view.consistentHashQueryParams,
    consistentHashRegex: ds.consistentHashRegex,
    deepCachingType: ds.deepCachingType,
    displayName: ds.displayName,
    dnsBypassCname: ds.dnsBypassCname,
    dnsBypassIp: ds.dnsBypassIp,
    dnsBypassIp6: ds.dnsBypassIp6,
    dnsBypassTtl: ds.dnsBypassTtl,
    dscp: ds.dscp,
    ecsEnabled: ds.ecsEnabled,
    edgeHeaderRewrite: ds.edgeHeaderRewrite,
    exampleURLs: exampleUrls(ds.protocol, typeName, ds.routingName, view.matchList, ds.cdn?.domainName ?? ''),
    firstHeaderRewrite: ds.firstHeaderRewrite,
    fqPacingRate: ds.fqPacingRate,
    geoLimit: ds.geoLimit,
    geoLimitCountries: version.atLeast('4.0')
      ? countries.length > 0
        ? countries
        : null
      : countries.join(','),
    geoLimitRedirectURL: ds.geoLimitRedirectUrl,
    geoProvider: ds.geoProvider,
    globalMaxMbps: ds.globalMaxMbps,
    globalMaxTps: ds.globalMaxTps,
    httpBypassFqdn: ds.httpBypassFqdn,
    id: ds.id,
    infoUrl: ds.infoUrl,
    initialDispersion: ds.initialDispersion,
    innerHeaderRewrite: ds.innerHeaderRewrite,
    ipv6RoutingEnabled: ds.ipv6RoutingEnabled,
    lastHeaderRewrite: ds.lastHeaderRewrite,
    lastUpdated: ds.lastUpdated,
    logsEnabled: ds.logsEnabled,
    longDesc: ds.longDesc ?? '',
    matchList: view.matchList.map((m) => ({ type: m.type, setNumber: m.setNumber, pattern: m.pattern })),
    maxDnsAnswers: ds.maxDnsAnswers,
    maxOriginConnections: ds.maxOriginConnections,
    midHeaderRewrite: ds.midHeaderRewrite,
    missLat: ds.missLat ?? 0,
    missLong: ds.missLong ?? 0,
    multiSiteOrigin: ds.multiSiteOrigin,
    orgServerFqdn: view.orgServerFqdn,
    originShield: ds.originShield,
    profileDescription: ds.profile?.description ?? null,
    profileId: ds.profileId,
    profileName: ds.profile?.name ?? null,
    protocol: ds.protocol,
    qstringIgnore: ds.qstringIgnore,
    rangeRequestHandling: ds.rangeRequestHandling,
    rangeSliceBlockSize: ds.rangeSliceBlockSize,
    regexRemap: ds.regexRemap,
    regionalGeoBlocking: ds.regionalGeoBlocking,
    remapText: ds.remapText,
    routingName: ds.routingName,
    serviceCategory: ds.serviceCategory,
    signed: ds.signingAlgorithm !== null,
    signingAlgorithm: ds.signingAlgorithm,
    sslKeyVersion: ds.sslKeyVersion,
    tenant: ds.tenant?.name ?? null,
    tenantId: ds.tenantId,
    topology: ds.topology,
    trRequestHeaders: ds.trRequestHeaders,
    trResponseHeaders: ds.trResponseHeaders,
    type: typeName,
    typeId: ds.typeId,
    xmlId: ds.xmlId,
  };
  if (version.atLeast('3.1')) {
    body.maxRequestHeaderBytes = ds.maxRequestHeaderBytes;
  }
  if (version.atLeast('4.0')) {
    body.tlsVersions = view.tlsVersions.length > 0 ? view.tlsVersions : null;
  } else {
    body.cacheurl = ds.cacheurl;
    if (ds.longDesc1 !== null) {
      body.longDesc1 = ds.longDesc1;
    }
    if (ds.longDesc2 !== null) {
      body.longDesc2 = ds.longDesc2;
    }
  }
  if (version.atLeast('4.1')) {
    body.regional = ds.regional;
    body.requiredCapabilities = view.requiredCapabilities;
  }
  // Built field by field above in the wire's key order, each version's fields added as it has them.
  return body as DeliveryServiceWire;
}
