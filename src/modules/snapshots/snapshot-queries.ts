/** The server statuses Traffic Router and the cache part of Traffic Monitor's configuration see. */
export const ROUTED_STATUSES = ['ONLINE', 'REPORTED', 'ADMIN_DOWN'];
export const ROUTER_TYPE = 'CCR';
export const MONITOR_TYPE = 'RASCAL';

export interface CdnRow {
  id: number;
  name: string;
  domainName: string;
  dnssecEnabled: boolean;
  ttlOverride: number | null;
}

export const num = (value: unknown): number => Number(value);
export const numOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
export const bool = (value: unknown): boolean => value === true || value === 'true' || Number(value) === 1;
/** A text column's value (drivers answer strings; numbers and Buffers only for odd column types). */
export const str = (value: unknown): string => {
  if (value === null || value === undefined) {
    return '';
  }
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  return Buffer.isBuffer(value) ? value.toString('utf8') : JSON.stringify(value);
};
export const strOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : str(value);

/** An object with `entries` as keys in byte order, as Go writes a map. */
export function sortedObject<T>(entries: Iterable<[string, T]>): Record<string, T> {
  const list = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const out: Record<string, T> = {};
  for (const [key, value] of list) {
    out[key] = value;
  }
  return out;
}

/** Go's strconv.Atoi: an optionally signed run of decimal digits, within 64 bits. */
export function atoi(value: string): number | undefined {
  if (!/^[+-]?\d+$/.test(value)) {
    return undefined;
  }
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The `?, ?, ?` of a list of parameters. */
export const placeholders = (values: unknown[]): string => values.map(() => '?').join(', ');

/** A topology in the snapshot documents: its EDGE_LOC cache groups by name, `null` when it has none. */
export interface SnapshotTopology {
  nodes: string[] | null;
}

/**
 * Every topology (whichever CDN uses it, as the original writes them), by name, with the names of its
 * EDGE_LOC cache groups in byte order, from the rows of SnapshotsRepository.topologyEdgeCachegroups.
 */
export function snapshotTopologies(list: Record<string, unknown>[]): Record<string, SnapshotTopology> {
  const nodes = new Map<string, string[]>();
  for (const row of list) {
    const topology = str(row.topology);
    const names = nodes.get(topology) ?? [];
    const cachegroup = strOrNull(row.cachegroup);
    if (cachegroup !== null) {
      names.push(cachegroup);
    }
    nodes.set(topology, names);
  }
  return sortedObject(
    [...nodes].map(([name, names]): [string, SnapshotTopology] => [
      name,
      { nodes: names.length > 0 ? names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) : null },
    ]),
  );
}
