import { isIPv4 } from 'node:net';
import type { SnapshotsRepository } from './snapshots.repository';
import type {
  CRConfigContentServer,
  CRConfigLocation,
  CRConfigMonitor,
  CRConfigRouter,
} from './dto/crconfig.response';
import {
  ALL_LOCALIZATION_METHODS,
  DEFAULT_WEIGHT,
  DEFAULT_WEIGHT_MULTIPLIER,
  group,
  isDnsType,
  tf,
} from './crconfig-parts';
import {
  bool,
  type CdnRow,
  MONITOR_TYPE,
  num,
  numOrNull,
  ROUTER_TYPE,
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
  snapshots: SnapshotsRepository,
  cdn: CdnRow,
): Promise<{
  servers: Record<string, CRConfigContentServer>;
  routers: Record<string, CRConfigRouter>;
  monitors: Record<string, CRConfigMonitor>;
}> {
  const serverRows = await snapshots.routedServers(cdn.id);
  const params = await serverParams(snapshots, cdn);
  const addresses = await serviceAddresses(snapshots, cdn);
  const serverDses = await serverDeliveryServices(snapshots, cdn);

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
  snapshots: SnapshotsRepository,
  cdn: CdnRow,
): Promise<
  Map<string, { apiPort?: string; secureApiPort?: string; weight?: number; weightMultiplier?: number }>
> {
  const params = await snapshots.routedServerParameters(cdn.id);
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
  snapshots: SnapshotsRepository,
  cdn: CdnRow,
): Promise<Map<number, { interfaceName: string; ip: string; ip6: string }>> {
  const addressRows = await snapshots.serviceAddresses(cdn.id);
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
  snapshots: SnapshotsRepository,
  cdn: CdnRow,
): Promise<Map<string, Map<string, string[]>>> {
  const assignments = await snapshots.routedAssignments(cdn.id);
  const regexes = await snapshots.routedHostRegexes(cdn.id);
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
  snapshots: SnapshotsRepository,
  cdn: CdnRow,
): Promise<{ edge: Record<string, CRConfigLocation>; router: Record<string, CRConfigLocation> }> {
  const groups = await snapshots.locationCachegroups(cdn.id);
  const fallbacks = await snapshots.locationFallbacks(cdn.id);
  const methods = await snapshots.locationMethods(cdn.id);
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
