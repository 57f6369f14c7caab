import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ANY_MAP, STATUS_LIST } from './crconfig-parts';
import {
  bool,
  type CdnRow,
  num,
  numOrNull,
  placeholders,
  ROUTED_STATUSES,
  ROUTER_TYPE,
  str,
} from './snapshot-queries';

/** A row as the drivers answer it (both answer arrays of plain objects); the builders read its columns. */
type Row = Record<string, unknown>;

/** The primary profile of a server: the one of priority 0 (the first of its profiles). */
const PRIMARY_PROFILE_JOIN =
  'INNER JOIN server_profile sp ON sp.server = s.id AND sp.priority = ' +
  '(SELECT MIN(sp2.priority) FROM server_profile sp2 WHERE sp2.server = s.id) ' +
  'INNER JOIN profile p ON p.id = sp.profile';

const CACHE_MONITOR_CONFIG_FILE = 'rascal.properties';
const MONITOR_CONFIG_FILE = 'rascal-config.txt';

/**
 * The `snapshot` table (no entity: raw SQL, docs/decisions.md#d70), and the reads of the CDN's
 * servers, delivery services, cache groups, profiles and parameters the snapshot documents are built
 * from, each over the whole CDN: the only file of the module that runs SQL
 * (docs/architecture.md#data-access). The builders (crconfig.builder.ts, monitoring.builder.ts and
 * the CRConfig's parts) map the rows.
 */
@Injectable()
export class SnapshotsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The CDN named `name`, or undefined. */
  async cdnByName(name: string): Promise<CdnRow | undefined> {
    const [row] = await this.rows(
      'SELECT id, name, domain_name, dnssec_enabled, ttl_override FROM cdn WHERE name = ?',
      [name],
    );
    return row
      ? {
          id: num(row.id),
          name: str(row.name),
          domainName: str(row.domain_name),
          dnssecEnabled: bool(row.dnssec_enabled),
          ttlOverride: numOrNull(row.ttl_override),
        }
      : undefined;
  }

  /** The name of the CDN with this id, or undefined. */
  async cdnNameOf(id: number): Promise<string | undefined> {
    const [row] = await this.rows('SELECT name FROM cdn WHERE id = ?', [id]);
    return row ? str(row.name) : undefined;
  }

  /** Stores the CDN's snapshot, replacing its previous one (an upsert, written per database). */
  async store(cdnName: string, crconfig: string, monitoring: string, taken: string): Promise<void> {
    const values = [cdnName, crconfig, monitoring, taken];
    if (this.dataSource.options.type === 'better-sqlite3') {
      await this.dataSource.query(
        'INSERT INTO snapshot (cdn, crconfig, monitoring, last_updated) VALUES (?, ?, ?, ?) ON CONFLICT(cdn) ' +
          'DO UPDATE SET crconfig = excluded.crconfig, monitoring = excluded.monitoring, last_updated = excluded.last_updated',
        values,
      );
    } else {
      await this.dataSource.query(
        'INSERT INTO snapshot (cdn, crconfig, monitoring, last_updated) VALUES (?, ?, ?, ?) ON DUPLICATE KEY ' +
          'UPDATE crconfig = VALUES(crconfig), monitoring = VALUES(monitoring), last_updated = VALUES(last_updated)',
        values,
      );
    }
  }

  /** The CDN named `name` with its stored CRConfig (null without a snapshot): undefined without such a CDN. */
  async storedCRConfig(name: string): Promise<{ crconfig: unknown } | undefined> {
    const [row] = await this.rows(
      'SELECT c.name, s.crconfig FROM cdn c LEFT JOIN snapshot s ON s.cdn = c.name WHERE c.name = ?',
      [name],
    );
    return row ? { crconfig: row.crconfig } : undefined;
  }

  /** The CDN's stored monitoring configuration's text; empty without a snapshot. */
  async storedMonitoring(cdnName: string): Promise<string> {
    const [row] = await this.rows('SELECT monitoring FROM snapshot WHERE cdn = ?', [cdnName]);
    return row ? str(row.monitoring) : '';
  }

  /** Every topology with its EDGE_LOC cache groups (a row with a null cache group when it has none). */
  topologyEdgeCachegroups(): Promise<Row[]> {
    return this.rows(
      'SELECT t.name AS topology, c.name AS cachegroup FROM topology t ' +
        'LEFT JOIN (topology_cachegroup tc INNER JOIN cachegroup c ON c.name = tc.cachegroup ' +
        "INNER JOIN type ct ON ct.id = c.type AND ct.name = 'EDGE_LOC') ON tc.topology = t.name",
    );
  }

  /** The global `tm.url` parameter (the first), as rows. */
  trafficOpsUrl(): Promise<Row[]> {
    return this.rows(
      "SELECT value FROM parameter WHERE config_file = 'global' AND name = 'tm.url' ORDER BY id LIMIT 1",
    );
  }

  /** The CRConfig.json parameters of the primary profiles of the CDN's routers. */
  routerConfigParameters(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT DISTINCT pa.id, pa.name, pa.value FROM parameter pa ' +
        'INNER JOIN profile_parameter pp ON pp.parameter = pa.id ' +
        'INNER JOIN server_profile sp ON sp.profile = pp.profile AND sp.priority = ' +
        '(SELECT MIN(sp2.priority) FROM server_profile sp2 WHERE sp2.server = sp.server) ' +
        'INNER JOIN server s ON s.id = sp.server INNER JOIN type t ON t.id = s.type ' +
        "WHERE s.cdn_id = ? AND t.name = ? AND pa.config_file = 'CRConfig.json' ORDER BY pa.id",
      [cdnId, ROUTER_TYPE],
    );
  }

  /** The CDN's servers in a routed status, with their primary profile, cache group, status and type. */
  routedServers(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT s.id, s.host_name, s.domain_name, s.xmpp_id, s.https_port, s.tcp_port, cg.name AS cachegroup, ' +
        'p.name AS profile, p.routing_disabled, st.name AS status, t.name AS type ' +
        `FROM server s ${PRIMARY_PROFILE_JOIN} ` +
        'INNER JOIN cachegroup cg ON cg.id = s.cachegroup INNER JOIN type t ON t.id = s.type ' +
        `INNER JOIN status st ON st.id = s.status WHERE s.cdn_id = ? AND st.name IN (${STATUS_LIST})`,
      [cdnId, ...ROUTED_STATUSES],
    );
  }

  /** The weights and API ports of the primary profiles of the CDN's servers in a routed status. */
  routedServerParameters(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT s.host_name, pa.name, pa.value FROM server s ' +
        `${PRIMARY_PROFILE_JOIN} INNER JOIN status st ON st.id = s.status ` +
        'INNER JOIN profile_parameter pp ON pp.profile = p.id INNER JOIN parameter pa ON pa.id = pp.parameter ' +
        `WHERE s.cdn_id = ? AND st.name IN (${STATUS_LIST}) AND ((pa.config_file = 'CRConfig.json' ` +
        "AND pa.name IN ('weight', 'weightMultiplier')) OR pa.name IN ('api.port', 'secure.api.port')) " +
        'ORDER BY pa.id',
      [cdnId, ...ROUTED_STATUSES],
    );
  }

  /** The service addresses of the CDN's servers, with their interface's name. */
  serviceAddresses(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT ip.server, i.name AS interface_name, ip.address FROM ip_address ip ' +
        'INNER JOIN interface i ON i.id = ip.interface INNER JOIN server s ON s.id = ip.server ' +
        'WHERE s.cdn_id = ? AND ip.service_address = 1 ORDER BY ip.server, i.name, ip.id',
      [cdnId],
    );
  }

  /** The active, not ANY_MAP, not topology-based delivery services assigned to routed servers, by host name. */
  routedAssignments(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT s.host_name, ds.xml_id FROM deliveryservice_server dss ' +
        'INNER JOIN server s ON s.id = dss.server INNER JOIN deliveryservice ds ON ds.id = dss.deliveryservice ' +
        `INNER JOIN type dt ON dt.id = ds.type ${PRIMARY_PROFILE_JOIN} INNER JOIN status st ON st.id = s.status ` +
        "WHERE ds.cdn_id = ? AND ds.active = 'ACTIVE' AND dt.name <> ? AND p.routing_disabled = 0 " +
        `AND ds.topology IS NULL AND st.name IN (${STATUS_LIST}) ORDER BY s.host_name, ds.xml_id`,
      [cdnId, ANY_MAP, ...ROUTED_STATUSES],
    );
  }

  /** The HOST_REGEXP regexes of the CDN's active, not ANY_MAP, not topology-based delivery services. */
  routedHostRegexes(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT ds.xml_id, dt.name AS ds_type, ds.routing_name, r.pattern FROM regex r ' +
        'INNER JOIN type rt ON rt.id = r.type INNER JOIN deliveryservice_regex dsr ON dsr.regex = r.id ' +
        'INNER JOIN deliveryservice ds ON ds.id = dsr.deliveryservice INNER JOIN type dt ON dt.id = ds.type ' +
        "WHERE ds.cdn_id = ? AND ds.active = 'ACTIVE' AND dt.name <> ? AND rt.name = 'HOST_REGEXP' " +
        'AND ds.topology IS NULL ORDER BY dsr.set_number, dsr.id',
      [cdnId, ANY_MAP],
    );
  }

  /** The cache groups of the CDN's routed edges and routers, with their server type. */
  locationCachegroups(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT DISTINCT cg.id, cg.name, cg.latitude, cg.longitude, cg.fallback_to_closest, t.name AS type ' +
        'FROM cachegroup cg INNER JOIN server s ON s.cachegroup = cg.id INNER JOIN type t ON t.id = s.type ' +
        `INNER JOIN status st ON st.id = s.status WHERE s.cdn_id = ? AND (SUBSTR(t.name, 1, 4) = 'EDGE' OR t.name = ?) ` +
        `AND st.name IN (${STATUS_LIST})`,
      [cdnId, ROUTER_TYPE, ...ROUTED_STATUSES],
    );
  }

  /** The fallbacks of the cache groups of the CDN's servers, in order. */
  locationFallbacks(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT f.primary_cg, cg.name FROM cachegroup_fallbacks f INNER JOIN cachegroup cg ON cg.id = f.backup_cg ' +
        'WHERE f.primary_cg IN (SELECT s.cachegroup FROM server s WHERE s.cdn_id = ?) ORDER BY f.set_order, f.id',
      [cdnId],
    );
  }

  /** The localization methods of the cache groups of the CDN's servers. */
  locationMethods(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT m.cachegroup, m.method FROM cachegroup_localization_method m ' +
        'WHERE m.cachegroup IN (SELECT s.cachegroup FROM server s WHERE s.cdn_id = ?) ORDER BY m.id',
      [cdnId],
    );
  }

  /** The consistent-hash query parameters of the CDN's delivery services. */
  consistentHashQueryParams(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT q.deliveryservice_id, q.name FROM deliveryservice_consistent_hash_query_param q ' +
        'INNER JOIN deliveryservice ds ON ds.id = q.deliveryservice_id WHERE ds.cdn_id = ? ORDER BY q.name',
      [cdnId],
    );
  }

  /** The CDN's active delivery services but ANY_MAP ones, with their type. */
  routedDeliveryServices(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT d.id, d.xml_id, d.anonymous_blocking_enabled, d.consistent_hash_regex, d.deep_caching_type, ' +
        'd.initial_dispersion, d.dns_bypass_cname, d.dns_bypass_ip, d.dns_bypass_ip6, d.dns_bypass_ttl, ' +
        'd.routing_name, d.ccr_dns_ttl, d.ecs_enabled, d.regional_geo_blocking, d.geo_limit, ' +
        'd.geo_limit_countries, d.geolimit_redirect_url, d.http_bypass_fqdn, d.ipv6_routing_enabled, ' +
        'd.max_dns_answers, d.miss_lat, d.miss_long, d.profile, d.protocol, d.topology, d.tr_request_headers, ' +
        'd.tr_response_headers, t.name AS type FROM deliveryservice d INNER JOIN type t ON t.id = d.type ' +
        "WHERE d.cdn_id = ? AND d.active = 'ACTIVE' AND t.name <> ?",
      [cdnId, ANY_MAP],
    );
  }

  /** The tld.ttls.SOA and tld.ttls.NS parameters of the profiles of the CDN's servers. */
  tldTtlParameters(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT DISTINCT pa.id, pa.name, pa.value FROM parameter pa INNER JOIN profile_parameter pp ON pp.parameter = pa.id ' +
        'WHERE pa.name IN (?, ?) AND pp.profile IN (SELECT sp.profile FROM server_profile sp ' +
        'INNER JOIN server s ON s.id = sp.server WHERE s.cdn_id = ?) ORDER BY pa.id',
      ['tld.ttls.SOA', 'tld.ttls.NS', cdnId],
    );
  }

  /** The regexes of the CDN's active delivery services, with their types and set numbers. */
  activeRegexes(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT r.pattern, t.name AS type, dt.name AS ds_type, dr.set_number, d.xml_id FROM regex r ' +
        'INNER JOIN deliveryservice_regex dr ON dr.regex = r.id INNER JOIN deliveryservice d ON d.id = dr.deliveryservice ' +
        'INNER JOIN type t ON t.id = r.type INNER JOIN type dt ON dt.id = d.type ' +
        "WHERE d.cdn_id = ? AND d.active = 'ACTIVE' ORDER BY dr.set_number, dr.id",
      [cdnId],
    );
  }

  /** The CDN's servers with their status, cache group and type. */
  monitoringServers(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT s.id, s.host_name, s.domain_name, s.tcp_port, s.xmpp_id, st.name AS status, cg.name AS cachegroup, ' +
        't.name AS type FROM server s INNER JOIN type t ON t.id = s.type INNER JOIN status st ON st.id = s.status ' +
        'INNER JOIN cachegroup cg ON cg.id = s.cachegroup WHERE s.cdn_id = ? ORDER BY s.host_name, s.id',
      [cdnId],
    );
  }

  /** The profiles of the CDN's servers, by priority. */
  serverProfiles(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT sp.server, p.name FROM server_profile sp INNER JOIN profile p ON p.id = sp.profile ' +
        'INNER JOIN server s ON s.id = sp.server WHERE s.cdn_id = ? ORDER BY sp.server, sp.priority',
      [cdnId],
    );
  }

  /** The interfaces of the CDN's servers with their IP addresses. */
  interfaces(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT i.id, i.server, i.name, i.max_bandwidth, i.mtu, i.monitor, ip.address, ip.gateway, ' +
        'ip.service_address FROM interface i INNER JOIN server s ON s.id = i.server ' +
        'LEFT JOIN ip_address ip ON ip.interface = i.id WHERE s.cdn_id = ? ORDER BY i.server, i.name, ip.id',
      [cdnId],
    );
  }

  /** The active, not ANY_MAP delivery services assigned to routed servers, by host name. */
  monitoredAssignments(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT s.host_name, ds.xml_id FROM deliveryservice_server dss INNER JOIN server s ON s.id = dss.server ' +
        'INNER JOIN deliveryservice ds ON ds.id = dss.deliveryservice INNER JOIN type dt ON dt.id = ds.type ' +
        'INNER JOIN server_profile sp ON sp.server = s.id AND sp.priority = ' +
        '(SELECT MIN(sp2.priority) FROM server_profile sp2 WHERE sp2.server = s.id) ' +
        'INNER JOIN profile p ON p.id = sp.profile INNER JOIN status st ON st.id = s.status ' +
        "WHERE ds.cdn_id = ? AND ds.active = 'ACTIVE' AND dt.name <> 'ANY_MAP' AND p.routing_disabled = 0 " +
        `AND st.name IN (${placeholders(ROUTED_STATUSES)}) ORDER BY s.host_name, ds.xml_id`,
      [cdnId, ...ROUTED_STATUSES],
    );
  }

  /** The cache groups of the CDN's servers. */
  serverCachegroups(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT cg.name, cg.latitude, cg.longitude FROM cachegroup cg ' +
        'WHERE cg.id IN (SELECT s.cachegroup FROM server s WHERE s.cdn_id = ?) ORDER BY cg.name',
      [cdnId],
    );
  }

  /** The rascal.properties parameters of the profiles named. */
  cacheMonitorParameters(names: string[]): Promise<Row[]> {
    return this.rows(
      'SELECT p.name AS profile, pa.name, pa.value FROM parameter pa ' +
        'INNER JOIN profile_parameter pp ON pp.parameter = pa.id INNER JOIN profile p ON p.id = pp.profile ' +
        `WHERE pa.config_file = ? AND p.name IN (${placeholders(names)}) ORDER BY pa.name, pa.id`,
      [CACHE_MONITOR_CONFIG_FILE, ...names],
    );
  }

  /** The CDN's active delivery services with their HOST_REGEXP regexes. */
  monitoredDeliveryServices(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT ds.xml_id, ds.global_max_tps, ds.global_max_mbps, t.name AS type, ds.topology, r.pattern ' +
        'FROM deliveryservice ds INNER JOIN type t ON t.id = ds.type ' +
        'INNER JOIN deliveryservice_regex dsr ON dsr.deliveryservice = ds.id INNER JOIN regex r ON r.id = dsr.regex ' +
        "INNER JOIN type rt ON rt.id = r.type WHERE ds.active = 'ACTIVE' AND ds.cdn_id = ? AND rt.name = 'HOST_REGEXP' " +
        'ORDER BY ds.xml_id, dsr.set_number, dsr.id',
      [cdnId],
    );
  }

  /** The rascal-config.txt parameters of the CDN's RASCAL profiles. */
  monitorConfigParameters(cdnId: number): Promise<Row[]> {
    return this.rows(
      'SELECT pa.name, pa.value FROM parameter pa INNER JOIN profile_parameter pp ON pp.parameter = pa.id ' +
        "INNER JOIN profile p ON p.id = pp.profile WHERE SUBSTR(p.name, 1, 6) = 'RASCAL' AND pa.config_file = ? AND p.cdn = ? " +
        'ORDER BY p.name, pa.id',
      [MONITOR_CONFIG_FILE, cdnId],
    );
  }

  private rows(sql: string, params: unknown[] = []): Promise<Row[]> {
    return this.dataSource.query<Row[]>(sql, params);
  }
}
