import { validateEnv } from 'src/config/env.validation';
import { type DatabaseHost, describeHosts, parseDatabaseUrl } from 'src/database/database-url';

/**
 * The database settings, read from the environment without Nest (the cluster's primary, the CLI and
 * the tests read them too; src/config/database.config.ts registers them as Nest's `database` namespace).
 *
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
      /** DATABASE_URL's hosts, in its order (several: a cluster, docs/scaling-out.md); unset: read from url. */
      hosts?: DatabaseHost[];
      /** Galera's wsrep_sync_wait for every connection; undefined: the server's own. */
      wsrepSyncWait?: number;
      /** How long a failed node of several is left out (default 5 s). */
      failoverRetryMs?: number;
    }
  | { driver: 'sqlite'; path: string; busyTimeoutMs: number };

export function databaseConfigFrom(raw: Record<string, unknown>): DatabaseConfig {
  const env = validateEnv(raw);
  if (!env.DATABASE_URL) {
    return { driver: 'sqlite', path: env.SQLITE_PATH, busyTimeoutMs: env.DB_ACQUIRE_TIMEOUT_MS };
  }
  const hosts = parseDatabaseUrl(env.DATABASE_URL).hosts;
  return {
    driver: 'mysql',
    url: env.DATABASE_URL,
    hosts,
    wsrepSyncWait: env.DB_WSREP_SYNC_WAIT ?? (hosts.length > 1 ? 1 : undefined),
    failoverRetryMs: env.DB_FAILOVER_RETRY_MS,
    poolSize: env.DB_POOL_SIZE,
    queryTimeoutMs: env.DB_QUERY_TIMEOUT_MS,
    acquireTimeoutMs: env.DB_ACQUIRE_TIMEOUT_MS,
    connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
  };
}

/** Where the data lives, for logs and messages: never the password. */
export function describeDatabase(config: DatabaseConfig): string {
  if (config.driver === 'sqlite') {
    return `the embedded database ${config.path}`;
  }
  const url = parseDatabaseUrl(config.url);
  const user = url.user ? `${url.user}@` : '';
  return `MySQL ${user}${describeHosts(url.hosts)}/${url.database}`;
}

/** The hosts of a MySQL configuration, in DATABASE_URL's order. */
export function hostsOf(config: Extract<DatabaseConfig, { driver: 'mysql' }>): DatabaseHost[] {
  return config.hosts ?? parseDatabaseUrl(config.url).hosts;
}
