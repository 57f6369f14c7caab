import type { CRConfigStaticDnsEntry } from 'src/modules/static-dns-entries/dto/static-dns-entry.response';
import type { SnapshotTopology } from 'src/modules/snapshots/snapshot-queries';
import { byVersion } from 'src/common/wire/by-version';
/**
 * The CRConfig document Traffic Router runs on (lib/go-tc CRConfig), field for field: booleans the
 * original writes as strings (`"true"`/`"false"`) are strings here too. Maps are objects whose keys
 * are in byte order, as Go writes them.
 */
export interface CRConfig {
  config?: Record<string, unknown>;
  contentServers?: Record<string, CRConfigContentServer>;
  contentRouters?: Record<string, CRConfigRouter>;
  deliveryServices?: Record<string, CRConfigDeliveryService>;
  edgeLocations?: Record<string, CRConfigLocation>;
  trafficRouterLocations?: Record<string, CRConfigLocation>;
  monitors?: Record<string, CRConfigMonitor>;
  stats: CRConfigStats;
  /** Every topology with its EDGE_LOC cache groups; absent when there is none. */
  topologies?: Record<string, SnapshotTopology>;
}

export interface CRConfigContentServer {
  cacheGroup: string;
  fqdn: string;
  hashCount: number;
  hashId: string;
  httpsPort?: number;
  interfaceName: string;
  ip: string;
  ip6: string;
  locationId: string;
  port: number | null;
  profile: string;
  status: string;
  type: string;
  deliveryServices?: Record<string, string[]>;
  routingDisabled: number;
}

export interface CRConfigRouter {
  'api.port'?: string;
  fqdn: string;
  httpsPort: number | null;
  ip: string;
  ip6: string;
  location: string;
  port?: number;
  profile: string;
  'secure.api.port'?: string;
  status: string;
}

export interface CRConfigMonitor {
  fqdn: string;
  httpsPort?: number;
  ip: string;
  ip6: string;
  location: string;
  port?: number;
  profile: string;
  status: string;
}

export interface CRConfigSoa {
  admin: string;
  expire: string;
  minimum: string;
  refresh: string;
  retry: string;
}

export interface CRConfigTtls {
  A: string;
  AAAA: string;
  NS: string;
  SOA: string;
}

export interface CRConfigBypassDestination {
  ip?: string;
  ip6?: string;
  cname?: string;
  ttl?: number;
  fqdn?: string;
  port?: string;
}

export interface CRConfigMatchSet {
  protocol: string;
  matchlist: { regex: string; 'match-type': string }[];
}

export interface CRConfigProtocol {
  acceptHttp?: string;
  acceptHttps: string;
  redirectToHttps: string;
}

export interface CRConfigDeliveryService {
  anonymousBlockingEnabled?: string;
  bypassDestination?: Record<string, CRConfigBypassDestination>;
  consistentHashQueryParams?: string[];
  consistentHashRegex?: string;
  coverageZoneOnly: string;
  deepCachingType: string;
  dispersion?: { limit: number; shuffled: string };
  domains?: string[];
  ecsEnabled: string;
  geoEnabled?: { countryCode: string }[];
  geoLimitRedirectURL?: string;
  geolocationProvider: string;
  ip6RoutingEnabled: string;
  /** One match set per regex of the delivery service; `null` for a regex type Traffic Router does not match on. */
  matchsets?: (CRConfigMatchSet | null)[];
  maxDnsIpsForLocation?: number;
  missLocation?: { lat: number; long: number };
  protocol: CRConfigProtocol;
  regionalGeoBlocking?: string;
  requestHeaders?: string[];
  responseHeaders?: Record<string, string>;
  routingName: string;
  soa: CRConfigSoa;
  sslEnabled: string;
  /** The delivery service's static DNS entries (src/modules/static-dns-entries); absent when none. */
  staticDnsEntries?: CRConfigStaticDnsEntry[];
  topology?: string;
  ttl?: number;
  ttls: CRConfigTtls;
}

export interface CRConfigLocation {
  latitude: number;
  longitude: number;
  backupLocations: { fallbackToClosest: string; list?: string[] };
  localizationMethods: string[];
}

export interface CRConfigStats {
  CDN_name?: string;
  date?: number;
  tm_host?: string;
  tm_path?: string;
  tm_user?: string;
  tm_version?: string;
}

/**
 * Before 4.0 a CRConfig's `stats` names a `tm_path` (after `tm_host`): the document as of 4.0 with
 * that path put in; statistics the document lacks stay out.
 */
function withTmPath(document: CRConfig, tmPath: string): CRConfig {
  const { CDN_name, date, tm_host, tm_user, tm_version } = document.stats;
  const stats: CRConfigStats = { CDN_name, date, tm_host, tm_path: tmPath, tm_user, tm_version };
  return {
    ...document,
    stats: Object.fromEntries(Object.entries(stats).filter(([, value]) => value !== undefined)),
  };
}

/** `cdns/{name}/snapshot/new`: before 4.0 `stats.tm_path` is the old tool's `/tools/write_crconfig/<cdn>`. */
export const toComputedCRConfig = byVersion<CRConfig, CRConfig>({
  '3.0': (document) => withTmPath(document, `/tools/write_crconfig/${document.stats.CDN_name}`),
  '4.0': (document) => document,
});

/** `cdns/{name}/snapshot`: before 4.0 `stats.tm_path` names the 4.0 route of the stored document. */
export const toStoredCRConfig = byVersion<{ cdn: string; document: CRConfig }, CRConfig>({
  '3.0': ({ cdn, document }) => withTmPath(document, `/api/4.0/cdns/${cdn}/snapshot`),
  '4.0': ({ document }) => document,
});
