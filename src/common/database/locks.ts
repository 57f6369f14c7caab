import type { DataSource } from 'typeorm';

/**
 * The lock to read a row with before changing it inside a transaction: `SELECT … FOR UPDATE` on
 * MySQL; nothing on SQLite, where a write transaction already excludes every other writer.
 */
export function writeLock(dataSource: DataSource): { mode: 'pessimistic_write' } | undefined {
  return dataSource.options.type === 'mysql' ? { mode: 'pessimistic_write' } : undefined;
}
