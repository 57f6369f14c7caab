import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { type Alert, warningAlert } from 'src/common/http/alerts';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import type { CacheData, CapacityData, HealthData, RoutingData } from './dto/monitoring.response';
import { MonitoringRepository } from './monitoring.repository';
import {
  type CacheStats,
  type CapacityDocuments,
  type CrConfig,
  type CrStates,
  type CrsStat,
  type StatValues,
  CRS_COUNTS,
  addCapacity,
  fqdnOf,
  noCapacity,
  percentOf,
  unsignedText,
  withTotals,
} from './monitoring-figures';
import { TrafficMonitorClient } from './traffic-monitor.client';

/** An answer computed from Traffic Monitors or Routers, with a warning for each one that could not be read. */
export interface Monitored<T> {
  data: T;
  warnings: Alert[];
}

const ATS_CONNECTIONS = 'ats.proxy.process.http.current_client_connections';
const NO_MONITOR = 'no online Traffic Monitor (RASCAL) server was found';

/**
 * The CDN-wide figures the original reads from the Traffic Monitors (`RASCAL` servers whose status
 * is `ONLINE`, or the global parameter `tm_query_status_override`) and Traffic Routers (`CCR`, ONLINE)
 * of each CDN, over HTTP (docs/original-behaviour.md#cdn-monitoring). Where the original fails (no
 * monitor, none answering, zero capacity) these answer the same shape with zero or empty values and
 * a warning alert (docs/decisions.md#d76).
 */
@Injectable()
export class MonitoringService {
  private readonly logger = new Logger(MonitoringService.name);

  constructor(
    private readonly database: MonitoringRepository,
    private readonly client: TrafficMonitorClient,
    private readonly tenancy: TenancyService,
  ) {}

  /** Online and offline REPORTED edge caches per cache group, of every CDN or of the one named. */
  async health(cdnName?: string): Promise<Monitored<HealthData>> {
    const monitors = await this.monitors(cdnName);
    const warnings: Alert[] = [];
    if (monitors.size === 0) {
      warnings.push(warningAlert(cdnName === undefined ? NO_MONITOR : `${NO_MONITOR} for CDN '${cdnName}'`));
    }
    const groups = new Map<string, { offline: number; online: number; name: string }>();
    let totalOnline = 0;
    let totalOffline = 0;
    for (const [cdn, fqdns] of monitors) {
      const read = await this.firstAnswering(fqdns, async (fqdn) => ({
        states: await this.client.get<CrStates>(fqdn, '/publish/CrStates'),
        config: await this.client.get<CrConfig>(fqdn, '/publish/CrConfig'),
      }));
      if (!read) {
        warnings.push(warningAlert(`getting health data from all Traffic Monitors failed for CDN '${cdn}'`));
        continue;
      }
      for (const [name, state] of Object.entries(read.states.caches ?? {})) {
        const server = read.config.contentServers?.[name];
        if (
          !server ||
          server.status !== 'REPORTED' ||
          !server.type?.startsWith('EDGE') ||
          !server.cacheGroup
        ) {
          continue;
        }
        const group = groups.get(server.cacheGroup) ?? { offline: 0, online: 0, name: server.cacheGroup };
        if (state.isAvailable) {
          group.online++;
          totalOnline++;
        } else {
          group.offline++;
          totalOffline++;
        }
        groups.set(server.cacheGroup, group);
      }
    }
    const cachegroups = [...groups.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { data: { totalOffline, totalOnline, cachegroups }, warnings };
  }

  /** The edge caches' bandwidth in use, unavailable and in maintenance, in percent of their capacity. */
  async capacity(): Promise<Monitored<CapacityData>> {
    const zero = noCapacity();
    const monitors = await this.monitors();
    if (monitors.size === 0) {
      return { data: zero, warnings: [warningAlert('no monitors found')] };
    }
    const thresholds = await this.bandwidthThresholds();
    const warnings: Alert[] = [];
    const cap = { available: 0, unavailable: 0, maintenance: 0, capacity: 0 };
    for (const [cdn, fqdns] of monitors) {
      const read = await this.firstAnswering(fqdns, (fqdn) => this.capacityDocuments(fqdn));
      if (!read) {
        warnings.push(
          warningAlert(`getting capacity data from all Traffic Monitors failed for CDN '${cdn}'`),
        );
        continue;
      }
      addCapacity(cap, read, thresholds);
    }
    if (cap.capacity === 0) {
      return { data: zero, warnings: [...warnings, warningAlert('capacity was zero!')] };
    }
    return { data: percentOf(cap), warnings };
  }

  /**
   * `GET deliveryservices/{id}/capacity`: the same figures over the EDGE caches that the first
   * answering monitor of the delivery service's CDN lists for it (deliveryservice/capacity.go). 403
   * outside the user's tenancy, 404 for no such delivery service; where the original fails (no
   * monitor answering, servers without capacity) zero and a warning (docs/decisions.md#d76).
   */
  async deliveryServiceCapacity(id: number, userTenantId: number): Promise<Monitored<CapacityData>> {
    const ds = await this.database.deliveryService(id);
    if (!ds) {
      throw new NotFoundException('Not Found');
    }
    await this.tenancy.assertWithinReach(userTenantId, ds.tenantId);
    const zero = noCapacity();
    const fqdns = (await this.monitors(ds.cdn)).get(ds.cdn);
    if (!fqdns) {
      return { data: zero, warnings: [] };
    }
    const thresholds = await this.bandwidthThresholds();
    const read = await this.firstAnswering(fqdns, (fqdn) => this.capacityDocuments(fqdn));
    if (!read) {
      return {
        data: zero,
        warnings: [
          warningAlert(`getting capacity data from all Traffic Monitors failed for CDN '${ds.cdn}'`),
        ],
      };
    }
    const sums = { available: 0, unavailable: 0, maintenance: 0, capacity: 0 };
    const cap = addCapacity(sums, read, thresholds, ds.xmlId);
    if (cap.capacity === 0) {
      const served = Object.values(read.config.contentServers ?? {}).some(
        (server) => server.deliveryServices?.[ds.xmlId] !== undefined,
      );
      return { data: zero, warnings: served ? [warningAlert('capacity was zero!')] : [] };
    }
    return { data: percentOf(cap), warnings: [] };
  }

  private async capacityDocuments(fqdn: string): Promise<CapacityDocuments> {
    return {
      states: await this.client.get<CrStates>(fqdn, '/publish/CrStates'),
      config: await this.client.get<CrConfig>(fqdn, '/publish/CrConfig'),
      stats: await this.cacheStats(fqdn, ['kbps', 'maxKbps']),
    };
  }

  /** How the Traffic Routers of every CDN routed requests, in percent of all (`/crs/stats`). */
  async routing(): Promise<Monitored<RoutingData>> {
    const routers = await this.routers();
    const warnings: Alert[] = [];
    if (routers.length === 0) {
      warnings.push(warningAlert('no online Traffic Router (CCR) server was found'));
    }
    const totals: Record<(typeof CRS_COUNTS)[number], number> = Object.fromEntries(
      CRS_COUNTS.map((count) => [count, 0]),
    ) as Record<(typeof CRS_COUNTS)[number], number>;
    let total = 0;
    for (const router of routers) {
      let stats: { stats?: Record<string, Record<string, CrsStat> | undefined> };
      try {
        stats = await this.client.get(router.fqdn, '/crs/stats');
      } catch (error) {
        this.logger.warn(`getting crs stats for CDN ${router.cdn} router ${router.fqdn}: ${String(error)}`);
        warnings.push(warningAlert(`getting crs stats for CDN ${router.cdn} router ${router.fqdn} failed`));
        continue;
      }
      for (const [key, hosts] of Object.entries(stats.stats ?? {})) {
        if (!['dnsmap', 'httpmap'].includes(key.toLowerCase())) {
          continue;
        }
        for (const stat of Object.values(hosts ?? {})) {
          for (const count of CRS_COUNTS) {
            const value = Number(stat[count] ?? 0);
            totals[count] += value;
            total += value;
          }
        }
      }
    }
    const percent = (count: number): number => (total === 0 ? 0 : (count / total) * 100);
    return {
      data: {
        staticRoute: percent(totals.staticRouteCount),
        geo: percent(totals.geoCount),
        err: percent(totals.errCount),
        fed: percent(totals.fedCount),
        cz: percent(totals.czCount),
        deepCz: percent(totals.deepCzCount),
        regionalAlternate: percent(totals.regionalAlternateCount),
        dsr: percent(totals.dsrCount),
        miss: percent(totals.missCount),
        regionalDenied: percent(totals.regionalDeniedCount),
      },
      warnings,
    };
  }

  /**
   * Every EDGE and MID cache (by profile name, as the original selects them) with its health,
   * bandwidth and connections from the Traffic Monitors, then a total per cache group and `ALL`.
   */
  async cachesStats(): Promise<Monitored<CacheData[]>> {
    const caches = await this.caches();
    const monitors = await this.monitors();
    const warnings: Alert[] = [];
    if (monitors.size === 0) {
      warnings.push(warningAlert(NO_MONITOR));
    }
    const byName = new Map(caches.map((cache) => [cache.hostname, cache]));
    for (const [cdn, fqdns] of monitors) {
      const read = await this.firstAnswering(fqdns, async (fqdn) => ({
        states: await this.client.get<CrStates>(fqdn, '/publish/CrStates'),
        stats: await this.cacheStats(fqdn, [ATS_CONNECTIONS, 'bandwidth']),
      }));
      if (!read) {
        warnings.push(warningAlert(`getting cache stats from all monitors failed for cdn '${cdn}'`));
        continue;
      }
      for (const [name, state] of Object.entries(read.states.caches ?? {})) {
        const cache = byName.get(name);
        if (cache) {
          cache.healthy = state.isAvailable === true;
        }
      }
      for (const [name, stats] of Object.entries(read.stats)) {
        const cache = byName.get(name);
        if (!cache) {
          continue;
        }
        cache.kbps = unsignedText(stats.bandwidth) ?? cache.kbps;
        cache.connections = unsignedText(stats[ATS_CONNECTIONS]) ?? cache.connections;
      }
    }
    return { data: withTotals(caches), warnings };
  }

  /** The monitors of each CDN (`host.domain[:tcpPort]`), of one CDN when named. */
  private async monitors(cdnName?: string): Promise<Map<string, string[]>> {
    const status = (await this.database.statusOverride()) ?? 'ONLINE';
    const rows = await this.database.monitors(status, cdnName);
    const monitors = new Map<string, string[]>();
    for (const row of rows) {
      monitors.set(row.cdn, [...(monitors.get(row.cdn) ?? []), fqdnOf(row)]);
    }
    return monitors;
  }

  /** ONLINE Traffic Routers with their `api.port` (a `server.xml` parameter of a profile of theirs). */
  private async routers(): Promise<{ fqdn: string; cdn: string }[]> {
    const rows = await this.database.routers();
    return rows.map((row) => ({ fqdn: fqdnOf(row), cdn: row.cdn }));
  }

  /** `health.threshold.availableBandwidthInKbps` (`rascal-config.txt`) per edge profile, `>` dropped. */
  private async bandwidthThresholds(): Promise<Map<string, number>> {
    const rows = await this.database.bandwidthThresholds();
    const thresholds = new Map<string, number>();
    for (const row of rows) {
      const value = Number(row.value.replace(/^>/, ''));
      if (Number.isFinite(value)) {
        thresholds.set(row.profile, value);
      }
    }
    return thresholds;
  }

  /** The caches of `caches/stats`: servers whose first profile's name starts with EDGE or MID. */
  private async caches(): Promise<CacheData[]> {
    const rows = await this.database.caches();
    return rows.map((row) => ({ ...row, healthy: false, kbps: 0, connections: 0 }));
  }

  /** `/publish/CacheStatsNew`, else the legacy `/publish/CacheStats`: each cache's stats by name. */
  private async cacheStats(fqdn: string, names: string[]): Promise<Record<string, StatValues>> {
    const query = `?hc=1&stats=${names.join(',')}`;
    let body: CacheStats;
    try {
      body = await this.client.get<CacheStats>(fqdn, `/publish/CacheStatsNew${query}`);
    } catch {
      body = await this.client.get<CacheStats>(fqdn, `/publish/CacheStats${query}`);
    }
    const stats: Record<string, StatValues> = {};
    for (const [name, cache] of Object.entries(body.caches ?? {})) {
      const values = cache.stats;
      stats[name] = (values !== undefined && !Array.isArray(values) ? values : cache) as StatValues;
    }
    return stats;
  }

  /** The first monitor whose documents could all be read, or undefined when none could. */
  private async firstAnswering<T>(
    fqdns: string[],
    read: (fqdn: string) => Promise<T>,
  ): Promise<T | undefined> {
    for (const fqdn of fqdns) {
      try {
        return await read(fqdn);
      } catch (error) {
        this.logger.warn(`reading Traffic Monitor ${fqdn}: ${String(error)}`);
      }
    }
    return undefined;
  }
}
