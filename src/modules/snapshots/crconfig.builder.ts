import { isIPv4 } from 'node:net';
import type { DataSource } from 'typeorm';
import type { CRConfigStaticDnsEntry } from 'src/modules/static-dns-entries/dto/static-dns-entry.response';
import type {
  CRConfig,
  CRConfigBypassDestination,
  CRConfigContentServer,
  CRConfigDeliveryService,
  CRConfigLocation,
  CRConfigMatchSet,
  CRConfigMonitor,
  CRConfigProtocol,
  CRConfigRouter,
  CRConfigSoa,
} from './dto/crconfig.response';
import {
  bool,
  type CdnRow,
  MONITOR_TYPE,
  num,
  numOrNull,
  placeholders,
  PRIMARY_PROFILE_JOIN,
  ROUTED_STATUSES,
  ROUTER_TYPE,
  rows,
  snapshotTopologies,
  sortedObject,
  str,
  strOrNull,
} from './snapshot-queries';

/**
 * The static DNS entries of a CDN's active delivery services by XML id, each with the CDN's TTL
 * override applied (the static DNS entries module's `crConfigEntries`, which owns them).
 */
export type StaticDnsEntriesReader = (
  cdnId: number,
  ttlOverride: number | null,
) => Promise<Map<string, CRConfigStaticDnsEntry[]>>;

/** Who and where the document is made, for its `stats`. */
export interface CRConfigContext {
  user: string;
  version: string;
}

const STATUS_LIST = placeholders(ROUTED_STATUSES);
const ALL_LOCALIZATION_METHODS = ['GEO', 'CZ', 'DEEP_CZ'];
const DEFAULT_WEIGHT = 0.999;
const DEFAULT_WEIGHT_MULTIPLIER = 1000;
const SOA_ADMIN = 'traffic_ops';
const SOA = { expire: 604800, minimum: 30, refresh: 28800, retry: 7200 };
const DEFAULT_TLD_TTL_SOA = 86400;
const DEFAULT_TLD_TTL_NS = 3600;
const GEO_PROVIDER = 'maxmindGeolocationService';
const ANY_MAP = 'ANY_MAP';

const isDnsType = (type: string): boolean => type.startsWith('DNS');
const category = (type: string): 'DNS' | 'HTTP' => (isDnsType(type) ? 'DNS' : 'HTTP');
const tf = (value: boolean): string => (value ? 'true' : 'false');

interface ServerRow {
  id: number;
  hostName: string;
  cachegroup: string;
  fqdn: string;
  hashId: string;
  httpsPort: number | null;
  port: number | null;
  profile: string;
  routingDisabled: number;
  status: string;
  type: string;
}

/**
 * Builds a CDN's CRConfig (docs/original-behaviour.md#snapshots) with a fixed set of queries, each
 * over the whole CDN: their number does not grow with the number of servers, delivery services or
 * cache groups.
 */
export class CRConfigBuilder {
  constructor(
    private readonly dataSource: DataSource,
    private readonly staticDnsEntries: StaticDnsEntriesReader,
  ) {}

  async build(cdn: CdnRow, context: CRConfigContext): Promise<CRConfig> {
    const config = await this.config(cdn);
    const { servers, routers, monitors } = await this.servers(cdn);
    const { edge, router } = await this.locations(cdn);
    const deliveryServices = await this.deliveryServices(cdn);
    const document: CRConfig = { config } as CRConfig;
    const maps: [keyof CRConfig, Record<string, unknown>][] = [
      ['contentServers', servers],
      ['contentRouters', routers],
      ['deliveryServices', deliveryServices],
      ['edgeLocations', edge],
      ['trafficRouterLocations', router],
      ['monitors', monitors],
    ];
    for (const [key, map] of maps) {
      if (Object.keys(map).length > 0) {
        (document as unknown as Record<string, unknown>)[key] = map;
      }
    }
    document.stats = {
      CDN_name: cdn.name,
      date: Math.floor(Date.now() / 1000),
      tm_host: await this.trafficOpsHost(),
      tm_user: context.user,
      tm_version: context.version,
    };
    const topologies = await snapshotTopologies(this.dataSource);
    if (Object.keys(topologies).length > 0) {
      document.topologies = topologies;
    }
    return document;
  }

  /** The host (and port) of the global `tm.url` parameter; empty without one. */
  private async trafficOpsHost(): Promise<string> {
    const [row] = await rows(
      this.dataSource,
      "SELECT value FROM parameter WHERE config_file = 'global' AND name = 'tm.url' ORDER BY id LIMIT 1",
    );
    let url = str(row?.value);
    if (!url.startsWith('http://') && !url.startsWith('https://')) {
      url = `http://${url}`;
    }
    try {
      return new URL(url).host;
    } catch {
      const bare = url.replace(/^https?:\/\//, '');
      const slash = bare.indexOf('/');
      return slash === -1 ? bare : bare.slice(0, slash);
    }
  }

  /** `config`: the CRConfig.json parameters of the profiles of the CDN's Traffic Routers. */
  private async config(cdn: CdnRow): Promise<Record<string, unknown>> {
    const params = await rows(
      this.dataSource,
      'SELECT DISTINCT pa.id, pa.name, pa.value FROM parameter pa ' +
        'INNER JOIN profile_parameter pp ON pp.parameter = pa.id ' +
        'INNER JOIN server_profile sp ON sp.profile = pp.profile AND sp.priority = ' +
        '(SELECT MIN(sp2.priority) FROM server_profile sp2 WHERE sp2.server = sp.server) ' +
        'INNER JOIN server s ON s.id = sp.server INNER JOIN type t ON t.id = s.type ' +
        "WHERE s.cdn_id = ? AND t.name = ? AND pa.config_file = 'CRConfig.json' ORDER BY pa.id",
      [cdn.id, ROUTER_TYPE],
    );
    const soa = new Map<string, string>();
    const ttls = new Map<string, string>();
    const overrides: { countryCode: string; lat: number; long: number }[] = [];
    const config = new Map<string, unknown>();
    for (const param of params) {
      const name = str(param.name);
      const value = str(param.value);
      if (name.startsWith('tld.soa.')) {
        soa.set(name.slice('tld.soa.'.length), value);
      } else if (name.startsWith('tld.ttls.')) {
        ttls.set(name.slice('tld.ttls.'.length), value);
      } else if (name === 'LogRequestHeaders') {
        config.set(
          'requestHeaders',
          value.split('__RETURN__').map((header) => header.trim()),
        );
      } else if (name === 'maxmind.default.override') {
        const override = maxmindOverride(value);
        if (override) {
          overrides.push(override);
        }
      } else {
        config.set(name, value);
      }
    }
    config.set('domain_name', cdn.domainName);
    if (soa.size > 0) {
      config.set('soa', sortedObject(soa));
    }
    if (ttls.size > 0) {
      config.set('ttls', sortedObject(ttls));
    }
    if (overrides.length > 0) {
      config.set('maxmindDefaultOverride', overrides);
    }
    config.set('dnssec.enabled', tf(cdn.dnssecEnabled));
    return sortedObject(config);
  }

  private async servers(cdn: CdnRow): Promise<{
    servers: Record<string, CRConfigContentServer>;
    routers: Record<string, CRConfigRouter>;
    monitors: Record<string, CRConfigMonitor>;
  }> {
    const serverRows = await rows(
      this.dataSource,
      'SELECT s.id, s.host_name, s.domain_name, s.xmpp_id, s.https_port, s.tcp_port, cg.name AS cachegroup, ' +
        'p.name AS profile, p.routing_disabled, st.name AS status, t.name AS type ' +
        `FROM server s ${PRIMARY_PROFILE_JOIN} ` +
        'INNER JOIN cachegroup cg ON cg.id = s.cachegroup INNER JOIN type t ON t.id = s.type ' +
        `INNER JOIN status st ON st.id = s.status WHERE s.cdn_id = ? AND st.name IN (${STATUS_LIST})`,
      [cdn.id, ...ROUTED_STATUSES],
    );
    const params = await this.serverParams(cdn);
    const addresses = await this.serviceAddresses(cdn);
    const serverDses = await this.serverDeliveryServices(cdn);

    const servers = new Map<string, CRConfigContentServer>();
    const routers = new Map<string, CRConfigRouter>();
    const monitors = new Map<string, CRConfigMonitor>();
    for (const row of serverRows) {
      const s: ServerRow = {
        id: num(row.id),
        hostName: str(row.host_name),
        cachegroup: str(row.cachegroup),
        fqdn: `${str(row.host_name)}.${str(row.domain_name)}`,
        hashId: str(row.xmpp_id) || str(row.host_name),
        httpsPort: numOrNull(row.https_port),
        port: numOrNull(row.tcp_port),
        profile: str(row.profile),
        routingDisabled: bool(row.routing_disabled) ? 1 : 0,
        status: str(row.status),
        type: str(row.type),
      };
      const p = params.get(s.hostName) ?? {};
      const address = addresses.get(s.id) ?? { interfaceName: '', ip: '', ip6: '' };
      if (s.type === ROUTER_TYPE) {
        routers.set(s.hostName, {
          ...(p.apiPort === undefined ? {} : { 'api.port': p.apiPort }),
          fqdn: s.fqdn,
          httpsPort: s.httpsPort,
          ip: address.ip,
          ip6: address.ip6,
          location: s.cachegroup,
          ...(s.port === null ? {} : { port: s.port }),
          profile: s.profile,
          ...(p.secureApiPort === undefined ? {} : { 'secure.api.port': p.secureApiPort }),
          status: s.status,
        });
      } else if (s.type === MONITOR_TYPE) {
        monitors.set(s.hostName, {
          fqdn: s.fqdn,
          ...(s.httpsPort === null ? {} : { httpsPort: s.httpsPort }),
          ip: address.ip,
          ip6: address.ip6,
          location: s.cachegroup,
          ...(s.port === null ? {} : { port: s.port }),
          profile: s.profile,
          status: s.status,
        });
      } else if (s.type.startsWith('EDGE') || s.type.startsWith('MID')) {
        const weight = p.weight ?? DEFAULT_WEIGHT;
        const multiplier = p.weightMultiplier ?? DEFAULT_WEIGHT_MULTIPLIER;
        const dses = s.routingDisabled === 0 ? serverDses.get(s.hostName) : undefined;
        servers.set(s.hostName, {
          cacheGroup: s.cachegroup,
          fqdn: s.fqdn,
          hashCount: Math.trunc(weight * multiplier),
          hashId: s.hashId,
          ...(s.httpsPort === null ? {} : { httpsPort: s.httpsPort }),
          interfaceName: address.interfaceName,
          ip: address.ip,
          ip6: address.ip6,
          locationId: s.cachegroup,
          port: s.port,
          profile: s.profile,
          status: s.status,
          type: s.type,
          ...(dses && dses.size > 0 ? { deliveryServices: sortedObject(dses) } : {}),
          routingDisabled: s.routingDisabled,
        });
      }
    }
    return {
      servers: sortedObject(servers),
      routers: sortedObject(routers),
      monitors: sortedObject(monitors),
    };
  }

  /** weight and weightMultiplier (CRConfig.json), api.port and secure.api.port of each server's profile. */
  private async serverParams(
    cdn: CdnRow,
  ): Promise<
    Map<string, { apiPort?: string; secureApiPort?: string; weight?: number; weightMultiplier?: number }>
  > {
    const params = await rows(
      this.dataSource,
      'SELECT s.host_name, pa.name, pa.value FROM server s ' +
        `${PRIMARY_PROFILE_JOIN} INNER JOIN status st ON st.id = s.status ` +
        'INNER JOIN profile_parameter pp ON pp.profile = p.id INNER JOIN parameter pa ON pa.id = pp.parameter ' +
        `WHERE s.cdn_id = ? AND st.name IN (${STATUS_LIST}) AND ((pa.config_file = 'CRConfig.json' ` +
        "AND pa.name IN ('weight', 'weightMultiplier')) OR pa.name IN ('api.port', 'secure.api.port')) " +
        'ORDER BY pa.id',
      [cdn.id, ...ROUTED_STATUSES],
    );
    const out = new Map<
      string,
      { apiPort?: string; secureApiPort?: string; weight?: number; weightMultiplier?: number }
    >();
    for (const row of params) {
      const host = str(row.host_name);
      const entry = out.get(host) ?? {};
      const value = str(row.value);
      const number = value.trim() === '' ? NaN : Number(value);
      switch (str(row.name)) {
        case 'api.port':
          entry.apiPort = value;
          break;
        case 'secure.api.port':
          entry.secureApiPort = value;
          break;
        case 'weight':
          if (!Number.isNaN(number)) {
            entry.weight = number;
          }
          break;
        case 'weightMultiplier':
          if (!Number.isNaN(number)) {
            entry.weightMultiplier = number;
          }
          break;
      }
      out.set(host, entry);
    }
    return out;
  }

  /**
   * The service addresses of each server: the first interface (by name) with a service address
   * gives the interface name, its IPv4 address (without the prefix length) and its IPv6 address
   * (as stored). A server without one has empty strings (docs/decisions.md#d71).
   */
  private async serviceAddresses(
    cdn: CdnRow,
  ): Promise<Map<number, { interfaceName: string; ip: string; ip6: string }>> {
    const addressRows = await rows(
      this.dataSource,
      'SELECT ip.server, i.name AS interface_name, ip.address FROM ip_address ip ' +
        'INNER JOIN interface i ON i.id = ip.interface INNER JOIN server s ON s.id = ip.server ' +
        'WHERE s.cdn_id = ? AND ip.service_address = 1 ORDER BY ip.server, i.name, ip.id',
      [cdn.id],
    );
    const out = new Map<number, { interfaceName: string; ip: string; ip6: string; done: boolean }>();
    for (const row of addressRows) {
      const server = num(row.server);
      const name = str(row.interface_name);
      let entry = out.get(server);
      if (!entry) {
        entry = { interfaceName: name, ip: '', ip6: '', done: false };
        out.set(server, entry);
      }
      if (entry.done || entry.interfaceName !== name) {
        entry.done = true;
        continue;
      }
      const address = str(row.address);
      const bare = address.split('/')[0];
      if (isIPv4(bare)) {
        entry.ip = bare;
      } else {
        entry.ip6 = address;
      }
    }
    const result = new Map<number, { interfaceName: string; ip: string; ip6: string }>();
    for (const [server, { interfaceName, ip, ip6 }] of out) {
      result.set(server, { interfaceName, ip, ip6 });
    }
    return result;
  }

  /**
   * Per cache, the delivery services it serves and the names it answers for them: assigned, active,
   * not ANY_MAP, not topology-based, on a profile that is not routing-disabled, in a routed status;
   * one name per HOST_REGEXP of the delivery service (by set number).
   */
  private async serverDeliveryServices(cdn: CdnRow): Promise<Map<string, Map<string, string[]>>> {
    const assignments = await rows(
      this.dataSource,
      'SELECT s.host_name, ds.xml_id FROM deliveryservice_server dss ' +
        'INNER JOIN server s ON s.id = dss.server INNER JOIN deliveryservice ds ON ds.id = dss.deliveryservice ' +
        `INNER JOIN type dt ON dt.id = ds.type ${PRIMARY_PROFILE_JOIN} INNER JOIN status st ON st.id = s.status ` +
        "WHERE ds.cdn_id = ? AND ds.active = 'ACTIVE' AND dt.name <> ? AND p.routing_disabled = 0 " +
        `AND ds.topology IS NULL AND st.name IN (${STATUS_LIST}) ORDER BY s.host_name, ds.xml_id`,
      [cdn.id, ANY_MAP, ...ROUTED_STATUSES],
    );
    const regexes = await rows(
      this.dataSource,
      'SELECT ds.xml_id, dt.name AS ds_type, ds.routing_name, r.pattern FROM regex r ' +
        'INNER JOIN type rt ON rt.id = r.type INNER JOIN deliveryservice_regex dsr ON dsr.regex = r.id ' +
        'INNER JOIN deliveryservice ds ON ds.id = dsr.deliveryservice INNER JOIN type dt ON dt.id = ds.type ' +
        "WHERE ds.cdn_id = ? AND ds.active = 'ACTIVE' AND dt.name <> ? AND rt.name = 'HOST_REGEXP' " +
        'AND ds.topology IS NULL ORDER BY dsr.set_number, dsr.id',
      [cdn.id, ANY_MAP],
    );
    const routes = new Map<string, { dns: boolean; raw: boolean; remap: string }[]>();
    for (const row of regexes) {
      const pattern = str(row.pattern);
      const dns = isDnsType(str(row.ds_type));
      const raw = !pattern.includes('.*');
      let remap = pattern;
      if (!raw) {
        const host = pattern.replaceAll('\\', '').replaceAll('.*', '');
        remap = dns ? `${str(row.routing_name)}${host}${cdn.domainName}` : `${host}${cdn.domainName}`;
      }
      const xmlId = str(row.xml_id);
      routes.set(xmlId, [...(routes.get(xmlId) ?? []), { dns, raw, remap }]);
    }
    const out = new Map<string, Map<string, string[]>>();
    for (const row of assignments) {
      const host = str(row.host_name);
      const xmlId = str(row.xml_id);
      const list = routes.get(xmlId);
      if (!list) {
        continue;
      }
      const names = list.map((route) => (!route.raw && !route.dns ? `${host}${route.remap}` : route.remap));
      const dses = out.get(host) ?? new Map<string, string[]>();
      dses.set(xmlId, names);
      out.set(host, dses);
    }
    return out;
  }

  /** Cache groups of the CDN's routed edges (`edgeLocations`) and Traffic Routers (`trafficRouterLocations`). */
  private async locations(
    cdn: CdnRow,
  ): Promise<{ edge: Record<string, CRConfigLocation>; router: Record<string, CRConfigLocation> }> {
    const groups = await rows(
      this.dataSource,
      'SELECT DISTINCT cg.id, cg.name, cg.latitude, cg.longitude, cg.fallback_to_closest, t.name AS type ' +
        'FROM cachegroup cg INNER JOIN server s ON s.cachegroup = cg.id INNER JOIN type t ON t.id = s.type ' +
        `INNER JOIN status st ON st.id = s.status WHERE s.cdn_id = ? AND (SUBSTR(t.name, 1, 4) = 'EDGE' OR t.name = ?) ` +
        `AND st.name IN (${STATUS_LIST})`,
      [cdn.id, ROUTER_TYPE, ...ROUTED_STATUSES],
    );
    const fallbacks = await rows(
      this.dataSource,
      'SELECT f.primary_cg, cg.name FROM cachegroup_fallbacks f INNER JOIN cachegroup cg ON cg.id = f.backup_cg ' +
        'WHERE f.primary_cg IN (SELECT s.cachegroup FROM server s WHERE s.cdn_id = ?) ORDER BY f.set_order, f.id',
      [cdn.id],
    );
    const methods = await rows(
      this.dataSource,
      'SELECT m.cachegroup, m.method FROM cachegroup_localization_method m ' +
        'WHERE m.cachegroup IN (SELECT s.cachegroup FROM server s WHERE s.cdn_id = ?) ORDER BY m.id',
      [cdn.id],
    );
    const fallbacksOf = group(fallbacks, 'primary_cg', 'name');
    const methodsOf = group(methods, 'cachegroup', 'method');
    const edge = new Map<string, CRConfigLocation>();
    const router = new Map<string, CRConfigLocation>();
    for (const row of groups) {
      const id = num(row.id);
      const location: CRConfigLocation = {
        latitude: numOrNull(row.latitude) ?? 0,
        longitude: numOrNull(row.longitude) ?? 0,
        backupLocations: { fallbackToClosest: 'false' },
        localizationMethods: methodsOf.get(id) ?? ALL_LOCALIZATION_METHODS,
      };
      if (str(row.type) === ROUTER_TYPE) {
        router.set(str(row.name), location);
      } else {
        const list = fallbacksOf.get(id);
        location.backupLocations = {
          fallbackToClosest: tf(bool(row.fallback_to_closest)),
          ...(list ? { list } : {}),
        };
        edge.set(str(row.name), location);
      }
    }
    return { edge: sortedObject(edge), router: sortedObject(router) };
  }

  private async deliveryServices(cdn: CdnRow): Promise<Record<string, CRConfigDeliveryService>> {
    const override = cdn.ttlOverride !== null && cdn.ttlOverride > 0 ? cdn.ttlOverride : undefined;
    const capped = (seconds: number): number =>
      override === undefined ? seconds : Math.min(override, seconds);
    const soa: CRConfigSoa = {
      admin: SOA_ADMIN,
      expire: String(capped(SOA.expire)),
      minimum: String(capped(SOA.minimum)),
      refresh: String(capped(SOA.refresh)),
      retry: String(capped(SOA.retry)),
    };
    const dsParams = await this.dsParams(cdn);
    const { matchsets, domains } = await this.matchsets(cdn);
    const staticDnsEntries = await this.staticDnsEntries(cdn.id, cdn.ttlOverride);
    const queryParams = group(
      await rows(
        this.dataSource,
        'SELECT q.deliveryservice_id, q.name FROM deliveryservice_consistent_hash_query_param q ' +
          'INNER JOIN deliveryservice ds ON ds.id = q.deliveryservice_id WHERE ds.cdn_id = ? ORDER BY q.name',
        [cdn.id],
      ),
      'deliveryservice_id',
      'name',
    );
    const dsRows = await rows(
      this.dataSource,
      'SELECT d.id, d.xml_id, d.anonymous_blocking_enabled, d.consistent_hash_regex, d.deep_caching_type, ' +
        'd.initial_dispersion, d.dns_bypass_cname, d.dns_bypass_ip, d.dns_bypass_ip6, d.dns_bypass_ttl, ' +
        'd.routing_name, d.ccr_dns_ttl, d.ecs_enabled, d.regional_geo_blocking, d.geo_limit, ' +
        'd.geo_limit_countries, d.geolimit_redirect_url, d.http_bypass_fqdn, d.ipv6_routing_enabled, ' +
        'd.max_dns_answers, d.miss_lat, d.miss_long, d.profile, d.protocol, d.topology, d.tr_request_headers, ' +
        'd.tr_response_headers, t.name AS type FROM deliveryservice d INNER JOIN type t ON t.id = d.type ' +
        "WHERE d.cdn_id = ? AND d.active = 'ACTIVE' AND t.name <> ?",
      [cdn.id, ANY_MAP],
    );
    const out = new Map<string, CRConfigDeliveryService>();
    for (const row of dsRows) {
      const xmlId = str(row.xml_id);
      const type = str(row.type);
      const protocolKind = category(type);
      const ttl = numOrNull(row.ccr_dns_ttl);
      const cappedTtl = ttl === null ? null : capped(ttl);
      const protocol = protocolOf(numOrNull(row.protocol));
      const geoLimit = numOrNull(row.geo_limit) ?? 0;
      const redirectUrl = str(row.geolimit_redirect_url);
      let ns = DEFAULT_TLD_TTL_NS;
      let soaTtl = DEFAULT_TLD_TTL_SOA;
      if (row.profile !== null && row.profile !== undefined) {
        const soaParam = dsParams.get('tld.ttls.SOA');
        const nsParam = dsParams.get('tld.ttls.NS');
        if (soaParam !== undefined && /^[+-]?\d+$/.test(soaParam)) {
          soaTtl = Number(soaParam);
        }
        if (nsParam !== undefined && /^[+-]?\d+$/.test(nsParam)) {
          ns = Number(nsParam);
        }
      }
      const ds: CRConfigDeliveryService = {} as CRConfigDeliveryService;
      let bypass: Record<string, CRConfigBypassDestination> | undefined;
      if (protocolKind === 'HTTP') {
        ds.anonymousBlockingEnabled = tf(bool(row.anonymous_blocking_enabled));
        const fqdn = str(row.http_bypass_fqdn);
        if (fqdn !== '') {
          const [host, port] = fqdn.split(':');
          bypass = { HTTP: { fqdn: host, ...(port === undefined ? {} : { port }) } };
        }
      } else {
        const destination: CRConfigBypassDestination = {};
        if (str(row.dns_bypass_ip) !== '') {
          destination.ip = str(row.dns_bypass_ip);
        }
        if (str(row.dns_bypass_ip6) !== '') {
          destination.ip6 = str(row.dns_bypass_ip6);
        }
        if (str(row.dns_bypass_cname) !== '') {
          destination.cname = str(row.dns_bypass_cname);
        }
        const bypassTtl = numOrNull(row.dns_bypass_ttl);
        if (bypassTtl !== null) {
          destination.ttl = capped(bypassTtl);
        }
        if (Object.keys(destination).length > 0) {
          bypass = { DNS: destination };
        }
      }
      if (bypass) {
        ds.bypassDestination = bypass;
      }
      const hashParams = queryParams.get(num(row.id));
      if (hashParams) {
        ds.consistentHashQueryParams = hashParams;
      }
      const hashRegex = str(row.consistent_hash_regex);
      if (hashRegex !== '') {
        ds.consistentHashRegex = hashRegex;
      }
      ds.coverageZoneOnly = tf(geoLimit === 1);
      ds.deepCachingType = deepCachingType(strOrNull(row.deep_caching_type));
      const dispersion = numOrNull(row.initial_dispersion);
      if (protocolKind === 'HTTP' && dispersion !== null) {
        ds.dispersion = { limit: dispersion, shuffled: 'true' };
      }
      const dsDomains = domains.get(xmlId);
      if (dsDomains) {
        ds.domains = dsDomains;
      }
      ds.ecsEnabled = tf(bool(row.ecs_enabled));
      const countries = strOrNull(row.geo_limit_countries);
      if (geoLimit !== 0 && geoLimit !== 1 && countries !== null) {
        ds.geoEnabled = countries.split(',').map((code) => ({ countryCode: code.trim() }));
      }
      if (geoLimit !== 0 && protocolKind === 'HTTP') {
        ds.geoLimitRedirectURL = redirectUrl;
      }
      ds.geolocationProvider = GEO_PROVIDER;
      ds.ip6RoutingEnabled = tf(bool(row.ipv6_routing_enabled));
      const sets = matchsets.get(xmlId);
      if (sets) {
        ds.matchsets = sets;
      }
      const maxDns = numOrNull(row.max_dns_answers);
      if (protocolKind === 'DNS' && maxDns !== null) {
        ds.maxDnsIpsForLocation = maxDns;
      }
      const missLat = numOrNull(row.miss_lat);
      const missLong = numOrNull(row.miss_long);
      if (missLat !== null && missLong !== null) {
        ds.missLocation = { lat: missLat, long: missLong };
      }
      ds.protocol = protocol;
      if (protocolKind === 'HTTP') {
        ds.regionalGeoBlocking = tf(bool(row.regional_geo_blocking));
      }
      const requestHeaders = headerLines(strOrNull(row.tr_request_headers));
      if (requestHeaders) {
        ds.requestHeaders = requestHeaders.map((line) => line.split(':')[0].trim());
      }
      const responseHeaders = headerLines(strOrNull(row.tr_response_headers));
      if (responseHeaders) {
        const headers = new Map<string, string>();
        for (const line of responseHeaders) {
          const parts = line.split(':');
          headers.set(parts[0].trim(), parts.length > 1 ? trimChars(parts[1], ' \n"') : '');
        }
        ds.responseHeaders = sortedObject(headers);
      }
      ds.routingName = str(row.routing_name);
      ds.soa = soa;
      ds.sslEnabled = protocol.acceptHttps;
      const entries = staticDnsEntries.get(xmlId);
      if (entries) {
        ds.staticDnsEntries = entries;
      }
      const topology = strOrNull(row.topology);
      if (topology !== null) {
        ds.topology = topology;
      }
      if (cappedTtl !== null) {
        ds.ttl = cappedTtl;
      }
      const ttlText = cappedTtl === null ? '' : String(cappedTtl);
      ds.ttls = { A: ttlText, AAAA: ttlText, NS: String(capped(ns)), SOA: String(capped(soaTtl)) };
      out.set(xmlId, ds);
    }
    return sortedObject(out);
  }

  /** tld.ttls.SOA and tld.ttls.NS of the profiles of the CDN's servers (the first found of each). */
  private async dsParams(cdn: CdnRow): Promise<Map<string, string>> {
    const params = await rows(
      this.dataSource,
      'SELECT DISTINCT pa.id, pa.name, pa.value FROM parameter pa INNER JOIN profile_parameter pp ON pp.parameter = pa.id ' +
        'WHERE pa.name IN (?, ?) AND pp.profile IN (SELECT sp.profile FROM server_profile sp ' +
        'INNER JOIN server s ON s.id = sp.server WHERE s.cdn_id = ?) ORDER BY pa.id',
      ['tld.ttls.SOA', 'tld.ttls.NS', cdn.id],
    );
    const out = new Map<string, string>();
    for (const row of params) {
      if (!out.has(str(row.name))) {
        out.set(str(row.name), str(row.value));
      }
    }
    return out;
  }

  /**
   * Each regex of an active delivery service is one match set (by set number); a regex type other
   * than HOST, PATH or HEADER gives `null`. HOST_REGEXPs of set number 0 name the domains.
   */
  private async matchsets(
    cdn: CdnRow,
  ): Promise<{ matchsets: Map<string, (CRConfigMatchSet | null)[]>; domains: Map<string, string[]> }> {
    const regexes = await rows(
      this.dataSource,
      'SELECT r.pattern, t.name AS type, dt.name AS ds_type, dr.set_number, d.xml_id FROM regex r ' +
        'INNER JOIN deliveryservice_regex dr ON dr.regex = r.id INNER JOIN deliveryservice d ON d.id = dr.deliveryservice ' +
        'INNER JOIN type t ON t.id = r.type INNER JOIN type dt ON dt.id = d.type ' +
        "WHERE d.cdn_id = ? AND d.active = 'ACTIVE' ORDER BY dr.set_number, dr.id",
      [cdn.id],
    );
    const matchsets = new Map<string, (CRConfigMatchSet | null)[]>();
    const domains = new Map<string, string[]>();
    const matchTypes: Record<string, string> = {
      HOST_REGEXP: 'HOST',
      PATH_REGEXP: 'PATH',
      HEADER_REGEXP: 'HEADER',
    };
    for (const row of regexes) {
      const xmlId = str(row.xml_id);
      const pattern = str(row.pattern);
      const type = str(row.type);
      const list = matchsets.get(xmlId) ?? [];
      const matchType = matchTypes[type];
      list.push(
        matchType
          ? { protocol: category(str(row.ds_type)), matchlist: [{ regex: pattern, 'match-type': matchType }] }
          : null,
      );
      matchsets.set(xmlId, list);
      if (type === 'HOST_REGEXP' && (numOrNull(row.set_number) ?? 0) === 0) {
        const host = pattern.replaceAll('\\', '').replaceAll('.*', '').replaceAll('.', '');
        domains.set(xmlId, [...(domains.get(xmlId) ?? []), `${host}.${cdn.domainName}`]);
      }
    }
    return { matchsets, domains };
  }
}

function group(list: Record<string, unknown>[], key: string, value: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const row of list) {
    const id = num(row[key]);
    out.set(id, [...(out.get(id) ?? []), str(row[value])]);
  }
  return out;
}

function protocolOf(protocol: number | null): CRConfigProtocol {
  switch (protocol) {
    case 1:
      return { acceptHttp: 'false', acceptHttps: 'true', redirectToHttps: 'false' };
    case 2:
      return { acceptHttps: 'true', redirectToHttps: 'false' };
    case 3:
      return { acceptHttps: 'true', redirectToHttps: 'true' };
    default:
      return { acceptHttps: 'false', redirectToHttps: 'false' };
  }
}

function deepCachingType(value: string | null): string {
  switch ((value ?? '').toLowerCase()) {
    case 'always':
      return 'ALWAYS';
    case 'never':
    case '':
      return 'NEVER';
    default:
      return 'INVALID';
  }
}

/** The lines of a header list the original stores with `__RETURN__` or newlines between them. */
function headerLines(value: string | null): string[] | undefined {
  if (value === null || value === '') {
    return undefined;
  }
  return value.replaceAll('__RETURN__', '\n').split('\n');
}

function trimChars(value: string, chars: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && chars.includes(value[start])) {
    start++;
  }
  while (end > start && chars.includes(value[end - 1])) {
    end--;
  }
  return value.slice(start, end);
}

/** `maxmind.default.override`: `<country code>;<latitude>,<longitude>`; a malformed one is left out. */
function maxmindOverride(value: string): { countryCode: string; lat: number; long: number } | undefined {
  const [countryCode, coordinates] = value.split(';');
  if (coordinates === undefined) {
    return undefined;
  }
  const [lat, long] = coordinates.split(',');
  if (long === undefined || lat.trim() === '' || long.trim() === '') {
    return undefined;
  }
  const latitude = Number(lat);
  const longitude = Number(long);
  if (Number.isNaN(latitude) || Number.isNaN(longitude)) {
    return undefined;
  }
  return { countryCode, lat: latitude, long: longitude };
}
