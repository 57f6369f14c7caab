import { isIPv4 } from 'node:net';
import type { DataSource } from 'typeorm';
import type {
  CRConfigContentServer,
  CRConfigLocation,
  CRConfigMonitor,
  CRConfigRouter,
} from './dto/crconfig.response';
import {
  ALL_LOCALIZATION_METHODS,
  ANY_MAP,
  DEFAULT_WEIGHT,
  DEFAULT_WEIGHT_MULTIPLIER,
  group,
  isDnsType,
  STATUS_LIST,
  tf,
} from './crconfig-parts';
import {
  bool,
  type CdnRow,
  MONITOR_TYPE,
  num,
  numOrNull,
  PRIMARY_PROFILE_JOIN,
  ROUTED_STATUSES,
  ROUTER_TYPE,
  rows,
  sortedObject,
  str,
} from './snapshot-queries';

/*
 * The CRConfig's servers (content servers, routers, monitors) and locations, each read with a fixed
 * number of queries over the whole CDN.
 */

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

export async function crConfigServers(
  dataSource: DataSource,
  cdn: CdnRow,
): Promise<{
  servers: Record<string, CRConfigContentServer>;
  routers: Record<string, CRConfigRouter>;
  monitors: Record<string, CRConfigMonitor>;
}> {
  const serverRows = await rows(
    dataSource,
    'SELECT s.id, s.host_name, s.domain_name, s.xmpp_id, s.https_port, s.tcp_port, cg.name AS cachegroup, ' +
      'p.name AS profile, p.routing_disabled, st.name AS status, t.name AS type ' +
      `FROM server s ${PRIMARY_PROFILE_JOIN} ` +
      'INNER JOIN cachegroup cg ON cg.id = s.cachegroup INNER JOIN type t ON t.id = s.type ' +
      `INNER JOIN status st ON st.id = s.status WHERE s.cdn_id = ? AND st.name IN (${STATUS_LIST})`,
    [cdn.id, ...ROUTED_STATUSES],
  );
  const params = await serverParams(dataSource, cdn);
  const addresses = await serviceAddresses(dataSource, cdn);
  const serverDses = await serverDeliveryServices(dataSource, cdn);

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
async function serverParams(
  dataSource: DataSource,
  cdn: CdnRow,
): Promise<
  Map<string, { apiPort?: string; secureApiPort?: string; weight?: number; weightMultiplier?: number }>
> {
  const params = await rows(
    dataSource,
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
async function serviceAddresses(
  dataSource: DataSource,
  cdn: CdnRow,
): Promise<Map<number, { interfaceName: string; ip: string; ip6: string }>> {
  const addressRows = await rows(
    dataSource,
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
async function serverDeliveryServices(
  dataSource: DataSource,
  cdn: CdnRow,
): Promise<Map<string, Map<string, string[]>>> {
  const assignments = await rows(
    dataSource,
    'SELECT s.host_name, ds.xml_id FROM deliveryservice_server dss ' +
      'INNER JOIN server s ON s.id = dss.server INNER JOIN deliveryservice ds ON ds.id = dss.deliveryservice ' +
      `INNER JOIN type dt ON dt.id = ds.type ${PRIMARY_PROFILE_JOIN} INNER JOIN status st ON st.id = s.status ` +
      "WHERE ds.cdn_id = ? AND ds.active = 'ACTIVE' AND dt.name <> ? AND p.routing_disabled = 0 " +
      `AND ds.topology IS NULL AND st.name IN (${STATUS_LIST}) ORDER BY s.host_name, ds.xml_id`,
    [cdn.id, ANY_MAP, ...ROUTED_STATUSES],
  );
  const regexes = await rows(
    dataSource,
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
export async function crConfigLocations(
  dataSource: DataSource,
  cdn: CdnRow,
): Promise<{ edge: Record<string, CRConfigLocation>; router: Record<string, CRConfigLocation> }> {
  const groups = await rows(
    dataSource,
    'SELECT DISTINCT cg.id, cg.name, cg.latitude, cg.longitude, cg.fallback_to_closest, t.name AS type ' +
      'FROM cachegroup cg INNER JOIN server s ON s.cachegroup = cg.id INNER JOIN type t ON t.id = s.type ' +
      `INNER JOIN status st ON st.id = s.status WHERE s.cdn_id = ? AND (SUBSTR(t.name, 1, 4) = 'EDGE' OR t.name = ?) ` +
      `AND st.name IN (${STATUS_LIST})`,
    [cdn.id, ROUTER_TYPE, ...ROUTED_STATUSES],
  );
  const fallbacks = await rows(
    dataSource,
    'SELECT f.primary_cg, cg.name FROM cachegroup_fallbacks f INNER JOIN cachegroup cg ON cg.id = f.backup_cg ' +
      'WHERE f.primary_cg IN (SELECT s.cachegroup FROM server s WHERE s.cdn_id = ?) ORDER BY f.set_order, f.id',
    [cdn.id],
  );
  const methods = await rows(
    dataSource,
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
