import { registerAs } from '@nestjs/config';
import { validateEnv } from 'src/config/env.validation';

/**
 * The database settings. `queryTimeoutMs`: the longest a MySQL statement may go unanswered (0: no
 * limit, for migrations); `acquireTimeoutMs`: the longest a request waits for a connection;
 * `busyTimeoutMs`: the longest an SQLite statement waits for another process's lock on the file.
 */
export type DatabaseConfig =
  | {
      driver: 'mysql';
      url: string;
      poolSize: number;
      queryTimeoutMs: number;
      acquireTimeoutMs: number;
      connectTimeoutMs?: number;
    }
  | { driver: 'sqlite'; path: string; busyTimeoutMs: number };

export function databaseConfigFrom(raw: Record<string, unknown>): DatabaseConfig {
  const env = validateEnv(raw);
  return env.DATABASE_URL
    ? {
        driver: 'mysql',
        url: env.DATABASE_URL,
        poolSize: env.DB_POOL_SIZE,
        queryTimeoutMs: env.DB_QUERY_TIMEOUT_MS,
        acquireTimeoutMs: env.DB_ACQUIRE_TIMEOUT_MS,
        connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
      }
    : { driver: 'sqlite', path: env.SQLITE_PATH, busyTimeoutMs: env.DB_ACQUIRE_TIMEOUT_MS };
}

export const databaseConfig = registerAs('database', (): DatabaseConfig => databaseConfigFrom(process.env));

/** Where the data lives, for logs and messages: never the password. */
export function describeDatabase(config: DatabaseConfig): string {
  if (config.driver === 'sqlite') {
    return `the embedded database ${config.path}`;
  }
  const url = new URL(config.url);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  return `MySQL ${user}${url.hostname}:${url.port || '3306'}${url.pathname}`;
}
