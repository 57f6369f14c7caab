import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as mysql2 from 'mysql2';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from 'src/config/database.config';

export const MIGRATIONS_TABLE = 'schema_migrations';

/**
 * mysql2, with every pooled connection switched to UTC before its first query, so that the
 * database's own CURRENT_TIMESTAMP agrees with the timestamps the service writes and reads.
 */
const mysqlDriver = {
  ...mysql2,
  createPool(options: mysql2.PoolOptions): mysql2.Pool {
    const pool = mysql2.createPool(options);
    pool.on('connection', (connection) => {
      connection.query("SET time_zone = '+00:00'");
    });
    return pool;
  },
};

/** The only place TypeORM options are written; the app and the migration CLI both use it. */
export function buildTypeOrmOptions(config: DatabaseConfig): DataSourceOptions {
  const common = {
    synchronize: false,
    migrationsTableName: MIGRATIONS_TABLE,
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    entities: [join(__dirname, '..', 'modules', '**', '*.entity.{ts,js}')],
    // Failed statements reach the exception filter, which maps them or logs them once.
    logging: false,
  };
  if (config.driver === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      url: config.url,
      connectorPackage: 'mysql2',
      driver: mysqlDriver,
      timezone: 'Z',
      charset: 'utf8mb4_unicode_ci',
      supportBigNumbers: true,
      bigNumberStrings: false,
      poolSize: config.poolSize,
      // A server that accepts connections and never answers fails the start-up within this time.
      connectTimeout: config.connectTimeoutMs,
    };
  }
  if (config.path !== ':memory:') {
    mkdirSync(dirname(config.path), { recursive: true });
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database: config.path,
    enableWAL: config.path !== ':memory:',
  };
}
