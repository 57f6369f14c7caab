import type { CacheData, CapacityData } from './dto/monitoring.response';

/**
 * The documents the Traffic Monitors and Routers answer (the parts read here), and the figures
 * computed from them: pure functions, no I/O (docs/original-behaviour.md#cdn-monitoring).
 */

export interface CrStates {
  caches?: Record<string, { isAvailable?: boolean }>;
}
export interface CrConfigServer {
  cacheGroup?: string;
  deliveryServices?: Record<string, unknown>;
  profile?: string;
  status?: string;
  type?: string;
}
export interface CrConfig {
  contentServers?: Record<string, CrConfigServer>;
}
export type StatValues = Record<string, { value?: unknown }[]>;
export interface CacheStats {
  caches?: Record<string, { stats?: StatValues } | StatValues>;
}
export type CrsStat = Partial<Record<(typeof CRS_COUNTS)[number], number>>;

export const CRS_COUNTS = [
  'czCount',
  'geoCount',
  'deepCzCount',
  'missCount',
  'dsrCount',
  'errCount',
  'staticRouteCount',
  'fedCount',
  'regionalDeniedCount',
  'regionalAlternateCount',
] as const;

export interface CapacityDocuments {
  states: CrStates;
  config: CrConfig;
  stats: Record<string, StatValues>;
}

export interface CapacitySums {
  available: number;
  unavailable: number;
  maintenance: number;
  capacity: number;
}

/**
 * Adds the EDGE caches of one monitor's documents (those serving `xmlId` when given): their kbps as
 * available or unavailable (REPORTED/ONLINE, by their health), or in maintenance (ADMIN_DOWN), and
 * their maxKbps less their profile's bandwidth threshold as capacity; other statuses count for nothing.
 */
export function addCapacity(
  cap: CapacitySums,
  read: CapacityDocuments,
  thresholds: Map<string, number>,
  xmlId?: string,
): CapacitySums {
  for (const [name, stats] of Object.entries(read.stats)) {
    const server = read.config.contentServers?.[name];
    if (xmlId !== undefined && server?.deliveryServices?.[xmlId] === undefined) {
      continue;
    }
    if (!server?.type || !server.status || !server.profile || !server.type.startsWith('EDGE')) {
      continue;
    }
    const kbps = firstNumber(stats.kbps);
    const maxKbps = firstNumber(stats.maxKbps);
    if (kbps === undefined || maxKbps === undefined) {
      continue;
    }
    if (server.status === 'REPORTED' || server.status === 'ONLINE') {
      if (read.states.caches?.[name]?.isAvailable) {
        cap.available += kbps;
      } else {
        cap.unavailable += kbps;
      }
    } else if (server.status === 'ADMIN_DOWN') {
      cap.maintenance += kbps;
    } else {
      continue;
    }
    cap.capacity += maxKbps - (thresholds.get(server.profile) ?? 0);
  }
  return cap;
}

export function noCapacity(): CapacityData {
  return { availablePercent: 0, unavailablePercent: 0, utilizedPercent: 0, maintenancePercent: 0 };
}

export function percentOf(cap: CapacitySums): CapacityData {
  return {
    availablePercent:
      ((cap.capacity - cap.unavailable - cap.maintenance - cap.available) * 100) / cap.capacity,
    unavailablePercent: (cap.unavailable * 100) / cap.capacity,
    utilizedPercent: (cap.available * 100) / cap.capacity,
    maintenancePercent: (cap.maintenance * 100) / cap.capacity,
  };
}

export function fqdnOf(row: { host: string; domain: string; port: number | string | null }): string {
  const port = row.port === null || row.port === '' ? undefined : Number(row.port);
  return `${row.host}.${row.domain}${port !== undefined && Number.isInteger(port) ? `:${port}` : ''}`;
}

export function firstNumber(values: { value?: unknown }[] | undefined): number | undefined {
  const value = values?.[0]?.value;
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(number) ? number : undefined;
}

/** A stat the original reads only as a decimal string of an unsigned integer. */
export function unsignedText(values: { value?: unknown }[] | undefined): number | undefined {
  const value = values?.[0]?.value;
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Appends a row per cache group (`ALL` for the other fields) and one for every cache. */
export function withTotals(caches: CacheData[]): CacheData[] {
  const all = (cachegroup: string): CacheData => ({
    hostname: 'ALL',
    cachegroup,
    status: 'ALL',
    profile: 'ALL',
    ip: null,
    healthy: true,
    kbps: 0,
    connections: 0,
  });
  const groups = new Map<string, CacheData>();
  const total = all('ALL');
  for (const cache of caches) {
    const group = groups.get(cache.cachegroup) ?? all(cache.cachegroup);
    group.kbps += cache.kbps;
    group.connections += cache.connections;
    groups.set(cache.cachegroup, group);
    total.kbps += cache.kbps;
    total.connections += cache.connections;
  }
  const sortedGroups = [...groups.values()].sort((a, b) =>
    a.cachegroup < b.cachegroup ? -1 : a.cachegroup > b.cachegroup ? 1 : 0,
  );
  return [...caches, ...sortedGroups, total];
}
