import { registerAs } from '@nestjs/config';
import { validateEnv } from 'src/config/env.validation';

export type DatabaseConfig =
  | { driver: 'mysql'; url: string; poolSize: number; connectTimeoutMs?: number }
  | { driver: 'sqlite'; path: string };

export function databaseConfigFrom(raw: Record<string, unknown>): DatabaseConfig {
  const env = validateEnv(raw);
  return env.DATABASE_URL
    ? {
        driver: 'mysql',
        url: env.DATABASE_URL,
        poolSize: env.DB_POOL_SIZE,
        connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
      }
    : { driver: 'sqlite', path: env.SQLITE_PATH };
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
