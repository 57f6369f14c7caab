import { isIPv4, isIPv6 } from 'node:net';
import type { SnapshotsRepository } from './snapshots.repository';
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
  ROUTED_STATUSES,
  ROUTER_TYPE,
  snapshotTopologies,
  sortedObject,
  str,
  strOrNull,
} from './snapshot-queries';

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
  constructor(private readonly snapshots: SnapshotsRepository) {}

  async build(cdn: CdnRow): Promise<MonitoringConfig> {
    const servers = await this.snapshots.monitoringServers(cdn.id);
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
      topologies: snapshotTopologies(await this.snapshots.topologyEdgeCachegroups()),
    };
  }

  /** Each server's profiles by priority, joined by spaces (how the original names a server's profile here). */
  private async profileLists(cdn: CdnRow): Promise<Map<number, string>> {
    const list = await this.snapshots.serverProfiles(cdn.id);
    const out = new Map<number, string>();
    for (const row of list) {
      const id = num(row.server);
      const before = out.get(id);
      out.set(id, before === undefined ? str(row.name) : `${before} ${str(row.name)}`);
    }
    return out;
  }

  private async interfaces(cdn: CdnRow): Promise<Map<number, MonitoringInterface[]>> {
    const list = await this.snapshots.interfaces(cdn.id);
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
    const list = await this.snapshots.monitoredAssignments(cdn.id);
    const out = new Map<string, string[]>();
    for (const row of list) {
      const host = str(row.host_name);
      out.set(host, [...(out.get(host) ?? []), str(row.xml_id)]);
    }
    return out;
  }

  /** Every cache group with a server of the CDN, with its coordinates (0 when it has none). */
  private async cachegroups(cdn: CdnRow): Promise<MonitoringConfig['cacheGroups']> {
    const list = await this.snapshots.serverCachegroups(cdn.id);
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
      const list = await this.snapshots.cacheMonitorParameters(names);
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
    const list = await this.snapshots.monitoredDeliveryServices(cdn.id);
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
    const list = await this.snapshots.monitorConfigParameters(cdn.id);
    const config = new Map<string, string | number>();
    for (const row of list) {
      config.set(str(row.name), valueOf(str(row.value)));
    }
    return sortedObject(config);
  }
}
