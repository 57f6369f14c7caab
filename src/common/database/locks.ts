import type { DataSource } from 'typeorm';

/**
 * The lock to read a row with before changing it inside a transaction: `SELECT … FOR UPDATE` on
 * MySQL; nothing on SQLite, where a write transaction already excludes every other writer.
 */
export function writeLock(dataSource: DataSource): { mode: 'pessimistic_write' } | undefined {
  return dataSource.options.type === 'mysql' ? { mode: 'pessimistic_write' } : undefined;
}

/**
 * The same, as a clause to append to a raw SELECT: `FOR UPDATE` (write) or `LOCK IN SHARE MODE`
 * (share: a locking read that also sees rows other transactions committed after ours began) on
 * MySQL; nothing on SQLite.
 */
export function lockingClause(dataSource: DataSource, mode: 'write' | 'share'): string {
  if (dataSource.options.type !== 'mysql') {
    return '';
  }
  return mode === 'write' ? ' FOR UPDATE' : ' LOCK IN SHARE MODE';
}
