import type { DataSource } from 'typeorm';

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

/** Rows of a query as plain records (both drivers answer arrays of objects). */
export async function rows(
  dataSource: DataSource,
  sql: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  return dataSource.query<Record<string, unknown>[]>(sql, params);
}

export async function cdnByName(dataSource: DataSource, name: string): Promise<CdnRow | undefined> {
  const [row] = await rows(
    dataSource,
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

/** The primary profile of a server: the one of priority 0 (the first of its profiles). */
export const PRIMARY_PROFILE_JOIN =
  'INNER JOIN server_profile sp ON sp.server = s.id AND sp.priority = ' +
  '(SELECT MIN(sp2.priority) FROM server_profile sp2 WHERE sp2.server = s.id) ' +
  'INNER JOIN profile p ON p.id = sp.profile';

/** The `?, ?, ?` of a list of parameters. */
export const placeholders = (values: unknown[]): string => values.map(() => '?').join(', ');

/** A topology in the snapshot documents: its EDGE_LOC cache groups by name, `null` when it has none. */
export interface SnapshotTopology {
  nodes: string[] | null;
}

/**
 * Every topology (whichever CDN uses it, as the original writes them), by name, with the names of its
 * EDGE_LOC cache groups in byte order; one query.
 */
export async function snapshotTopologies(dataSource: DataSource): Promise<Record<string, SnapshotTopology>> {
  const list = await rows(
    dataSource,
    'SELECT t.name AS topology, c.name AS cachegroup FROM topology t ' +
      'LEFT JOIN (topology_cachegroup tc INNER JOIN cachegroup c ON c.name = tc.cachegroup ' +
      "INNER JOIN type ct ON ct.id = c.type AND ct.name = 'EDGE_LOC') ON tc.topology = t.name",
  );
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
