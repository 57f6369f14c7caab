import { isIPv4, isIPv6 } from 'node:net';
import type { DataSource } from 'typeorm';
import type {
  MonitoringCache,
  MonitoringConfig,
  MonitoringDeliveryService,
  MonitoringInterface,
  MonitoringMonitor,
  MonitoringProfile,
} from './dto/monitoring.response';
import {
  atoi,
  bool,
  type CdnRow,
  MONITOR_TYPE,
  num,
  numOrNull,
  placeholders,
  ROUTED_STATUSES,
  ROUTER_TYPE,
  rows,
  snapshotTopologies,
  sortedObject,
  str,
  strOrNull,
} from './snapshot-queries';

const CACHE_MONITOR_CONFIG_FILE = 'rascal.properties';
const MONITOR_CONFIG_FILE = 'rascal-config.txt';
const KILOBITS_PER_MEGABIT = 1000;
const byName = <T extends { name: string }>(a: T, b: T): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/** A parameter value as Traffic Monitor reads it: a number when it is an integer, else the text. */
const valueOf = (value: string): string | number => atoi(value) ?? value;

/**
 * Builds a CDN's monitoring configuration (docs/original-behaviour.md#monitoring-configuration) with
 * a fixed set of queries over the whole CDN. Lists the original answers in no particular order are
 * ordered by name here.
 */
export class MonitoringBuilder {
  constructor(private readonly dataSource: DataSource) {}

  async build(cdn: CdnRow): Promise<MonitoringConfig> {
    const servers = await rows(
      this.dataSource,
      'SELECT s.id, s.host_name, s.domain_name, s.tcp_port, s.xmpp_id, st.name AS status, cg.name AS cachegroup, ' +
        't.name AS type FROM server s INNER JOIN type t ON t.id = s.type INNER JOIN status st ON st.id = s.status ' +
        'INNER JOIN cachegroup cg ON cg.id = s.cachegroup WHERE s.cdn_id = ? ORDER BY s.host_name, s.id',
      [cdn.id],
    );
    const profileLists = await this.profileLists(cdn);
    const interfaces = await this.interfaces(cdn);
    const serverDses = await this.serverDeliveryServices(cdn);

    const monitors: MonitoringMonitor[] = [];
    const caches: MonitoringCache[] = [];
    const profileTypes = new Map<string, string>();
    const cacheProfiles = new Set<string>();
    for (const row of servers) {
      const id = num(row.id);
      const type = str(row.type);
      const status = str(row.status);
      const profile = profileLists.get(id) ?? '';
      const common = {
        profile,
        status,
        port: numOrNull(row.tcp_port) ?? 0,
        cachegroup: str(row.cachegroup),
        hostname: str(row.host_name),
        fqdn: `${str(row.host_name)}.${str(row.domain_name)}`,
      };
      const serverInterfaces = interfaces.get(id) ?? [];
      if (type === MONITOR_TYPE) {
        let ip = '';
        let ip6 = '';
        for (const address of serverInterfaces.flatMap((i) => i.ipAddresses ?? [])) {
          const bare = address.address.split('/')[0];
          if (ip === '' && isIPv4(bare)) {
            ip = bare;
          } else if (ip6 === '' && isIPv6(bare)) {
            ip6 = bare;
          }
          if (ip !== '' && ip6 !== '') {
            break;
          }
        }
        monitors.push({ ...common, ip, ip6 });
      } else if ((type.startsWith('EDGE') || type.startsWith('MID')) && ROUTED_STATUSES.includes(status)) {
        const dses = serverDses.get(common.hostname);
        caches.push({
          ...common,
          interfaces: serverInterfaces.length > 0 ? serverInterfaces : null,
          type,
          hashid: str(row.xmpp_id),
          ...(dses ? { deliveryServices: dses.map((xmlId) => ({ xmlId })) } : {}),
        });
        if (!cacheProfiles.has(profile)) {
          cacheProfiles.add(profile);
          profileTypes.set(profile, type);
        }
      } else if (type === ROUTER_TYPE && !profileTypes.has(profile)) {
        profileTypes.set(profile, type);
      }
    }
    return {
      trafficServers: caches,
      trafficMonitors: monitors,
      cacheGroups: await this.cachegroups(cdn),
      profiles: await this.profiles(profileTypes),
      deliveryServices: await this.deliveryServices(cdn),
      config: await this.config(cdn),
      topologies: await snapshotTopologies(this.dataSource),
    };
  }

  /** Each server's profiles by priority, joined by spaces (how the original names a server's profile here). */
  private async profileLists(cdn: CdnRow): Promise<Map<number, string>> {
    const list = await rows(
      this.dataSource,
      'SELECT sp.server, p.name FROM server_profile sp INNER JOIN profile p ON p.id = sp.profile ' +
        'INNER JOIN server s ON s.id = sp.server WHERE s.cdn_id = ? ORDER BY sp.server, sp.priority',
      [cdn.id],
    );
    const out = new Map<number, string>();
    for (const row of list) {
      const id = num(row.server);
      const before = out.get(id);
      out.set(id, before === undefined ? str(row.name) : `${before} ${str(row.name)}`);
    }
    return out;
  }

  private async interfaces(cdn: CdnRow): Promise<Map<number, MonitoringInterface[]>> {
    const list = await rows(
      this.dataSource,
      'SELECT i.id, i.server, i.name, i.max_bandwidth, i.mtu, i.monitor, ip.address, ip.gateway, ' +
        'ip.service_address FROM interface i INNER JOIN server s ON s.id = i.server ' +
        'LEFT JOIN ip_address ip ON ip.interface = i.id WHERE s.cdn_id = ? ORDER BY i.server, i.name, ip.id',
      [cdn.id],
    );
    const out = new Map<number, MonitoringInterface[]>();
    const byId = new Map<number, MonitoringInterface>();
    for (const row of list) {
      const id = num(row.id);
      let entry = byId.get(id);
      if (!entry) {
        entry = {
          ipAddresses: null,
          maxBandwidth: numOrNull(row.max_bandwidth),
          monitor: bool(row.monitor),
          mtu: numOrNull(row.mtu),
          name: str(row.name),
        };
        byId.set(id, entry);
        const server = num(row.server);
        out.set(server, [...(out.get(server) ?? []), entry]);
      }
      if (row.address !== null && row.address !== undefined) {
        entry.ipAddresses = [
          ...(entry.ipAddresses ?? []),
          {
            address: str(row.address),
            gateway: strOrNull(row.gateway),
            serviceAddress: bool(row.service_address),
          },
        ];
      }
    }
    return out;
  }

  private async serverDeliveryServices(cdn: CdnRow): Promise<Map<string, string[]>> {
    const list = await rows(
      this.dataSource,
      'SELECT s.host_name, ds.xml_id FROM deliveryservice_server dss INNER JOIN server s ON s.id = dss.server ' +
        'INNER JOIN deliveryservice ds ON ds.id = dss.deliveryservice INNER JOIN type dt ON dt.id = ds.type ' +
        'INNER JOIN server_profile sp ON sp.server = s.id AND sp.priority = ' +
        '(SELECT MIN(sp2.priority) FROM server_profile sp2 WHERE sp2.server = s.id) ' +
        'INNER JOIN profile p ON p.id = sp.profile INNER JOIN status st ON st.id = s.status ' +
        "WHERE ds.cdn_id = ? AND ds.active = 'ACTIVE' AND dt.name <> 'ANY_MAP' AND p.routing_disabled = 0 " +
        `AND st.name IN (${placeholders(ROUTED_STATUSES)}) ORDER BY s.host_name, ds.xml_id`,
      [cdn.id, ...ROUTED_STATUSES],
    );
    const out = new Map<string, string[]>();
    for (const row of list) {
      const host = str(row.host_name);
      out.set(host, [...(out.get(host) ?? []), str(row.xml_id)]);
    }
    return out;
  }

  /** Every cache group with a server of the CDN, with its coordinates (0 when it has none). */
  private async cachegroups(cdn: CdnRow): Promise<MonitoringConfig['cacheGroups']> {
    const list = await rows(
      this.dataSource,
      'SELECT cg.name, cg.latitude, cg.longitude FROM cachegroup cg ' +
        'WHERE cg.id IN (SELECT s.cachegroup FROM server s WHERE s.cdn_id = ?) ORDER BY cg.name',
      [cdn.id],
    );
    return list.map((row) => ({
      name: str(row.name),
      coordinates: { latitude: numOrNull(row.latitude) ?? 0, longitude: numOrNull(row.longitude) ?? 0 },
    }));
  }

  /**
   * The rascal.properties parameters of each profile list of the caches and Traffic Routers: of
   * each name, the value of the first profile in the list that has it.
   */
  private async profiles(profileTypes: Map<string, string>): Promise<MonitoringProfile[]> {
    const names = [...new Set([...profileTypes.keys()].flatMap((list) => list.split(' ')))].filter(
      (name) => name !== '',
    );
    const byProfile = new Map<string, [string, string][]>();
    if (names.length > 0) {
      const list = await rows(
        this.dataSource,
        'SELECT p.name AS profile, pa.name, pa.value FROM parameter pa ' +
          'INNER JOIN profile_parameter pp ON pp.parameter = pa.id INNER JOIN profile p ON p.id = pp.profile ' +
          `WHERE pa.config_file = ? AND p.name IN (${placeholders(names)}) ORDER BY pa.name, pa.id`,
        [CACHE_MONITOR_CONFIG_FILE, ...names],
      );
      for (const row of list) {
        const profile = str(row.profile);
        byProfile.set(profile, [...(byProfile.get(profile) ?? []), [str(row.name), str(row.value)]]);
      }
    }
    const out: MonitoringProfile[] = [];
    for (const [list, type] of profileTypes) {
      const parameters = new Map<string, string | number>();
      for (const profile of list.split(' ')) {
        for (const [name, value] of byProfile.get(profile) ?? []) {
          if (!parameters.has(name)) {
            parameters.set(name, valueOf(value));
          }
        }
      }
      out.push({ name: list, type, parameters: sortedObject(parameters) });
    }
    return out.sort(byName);
  }

  /** Active delivery services of the CDN that have a HOST_REGEXP, with their thresholds. */
  private async deliveryServices(cdn: CdnRow): Promise<MonitoringDeliveryService[]> {
    const list = await rows(
      this.dataSource,
      'SELECT ds.xml_id, ds.global_max_tps, ds.global_max_mbps, t.name AS type, ds.topology, r.pattern ' +
        'FROM deliveryservice ds INNER JOIN type t ON t.id = ds.type ' +
        'INNER JOIN deliveryservice_regex dsr ON dsr.deliveryservice = ds.id INNER JOIN regex r ON r.id = dsr.regex ' +
        "INNER JOIN type rt ON rt.id = r.type WHERE ds.active = 'ACTIVE' AND ds.cdn_id = ? AND rt.name = 'HOST_REGEXP' " +
        'ORDER BY ds.xml_id, dsr.set_number, dsr.id',
      [cdn.id],
    );
    const out = new Map<string, MonitoringDeliveryService>();
    for (const row of list) {
      const xmlId = str(row.xml_id);
      const existing = out.get(xmlId);
      if (existing) {
        existing.hostRegexes.push(str(row.pattern));
        continue;
      }
      const type = str(row.type);
      out.set(xmlId, {
        xmlId,
        totalTpsThreshold: numOrNull(row.global_max_tps) ?? 0,
        status: 'REPORTED',
        totalKbpsThreshold: (numOrNull(row.global_max_mbps) ?? 0) * KILOBITS_PER_MEGABIT,
        type: type.startsWith('DNS') ? 'DNS' : 'HTTP',
        topology: str(row.topology),
        hostRegexes: [str(row.pattern)],
      });
    }
    return [...out.values()];
  }

  /** The rascal-config.txt parameters of the CDN's Traffic Monitor profiles (named RASCAL…). */
  private async config(cdn: CdnRow): Promise<Record<string, string | number>> {
    const list = await rows(
      this.dataSource,
      'SELECT pa.name, pa.value FROM parameter pa INNER JOIN profile_parameter pp ON pp.parameter = pa.id ' +
        "INNER JOIN profile p ON p.id = pp.profile WHERE SUBSTR(p.name, 1, 6) = 'RASCAL' AND pa.config_file = ? AND p.cdn = ? " +
        'ORDER BY p.name, pa.id',
      [MONITOR_CONFIG_FILE, cdn.id],
    );
    const config = new Map<string, string | number>();
    for (const row of list) {
      config.set(str(row.name), valueOf(str(row.value)));
    }
    return sortedObject(config);
  }
}
