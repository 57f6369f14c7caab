import type { DataSource } from 'typeorm';
import type { PoolFigures } from './metrics';

/** The part of a mysql2 pool its figures are read from. */
interface Mysql2Pool {
  config?: { connectionLimit?: number };
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

/**
 * Reads the MySQL pool's figures when scraped: its size (DB_POOL_SIZE), the connections open, those
 * lent to a request, and the requests waiting for one. The embedded SQLite file has no pool.
 */
export function poolReaderOf(dataSource: DataSource): () => PoolFigures | undefined {
  return () => {
    const pool = (dataSource.driver as unknown as { pool?: Mysql2Pool }).pool;
    if (!pool?._allConnections || !pool._freeConnections || !pool._connectionQueue) {
      return undefined;
    }
    const open = pool._allConnections.length;
    return {
      size: pool.config?.connectionLimit ?? open,
      open,
      inUse: open - pool._freeConnections.length,
      waiting: pool._connectionQueue.length,
    };
  };
}
