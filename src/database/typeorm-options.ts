import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as mysql2 from 'mysql2';
import type { DataSourceOptions } from 'typeorm';
import { type DatabaseConfig, hostsOf } from 'src/config/database.env';
import { useDialect } from 'src/common/database/columns';
import { parseDatabaseUrl } from 'src/database/database-url';
import { FailoverPool, meansNodeDown } from 'src/database/failover-pool';

export const MIGRATIONS_TABLE = 'schema_migrations';

/** The error code of a request that found no database connection within DB_ACQUIRE_TIMEOUT_MS. */
const ACQUIRE_TIMEOUT_CODE = 'POOL_ACQUIRE_TIMEOUT';
/** The error code of a statement unanswered within DB_QUERY_TIMEOUT_MS (mysql2's own for it). */
const QUERY_TIMEOUT_CODE = 'PROTOCOL_SEQUENCE_TIMEOUT';

type QueryCallback = (error: Error | null, ...results: unknown[]) => void;
type ConnectionCallback = (error: NodeJS.ErrnoException | null, connection?: mysql2.PoolConnection) => void;

/**
 * Every statement of `connection` fails after `timeoutMs` without an answer. The clock is the
 * client's, so it also ends a wait on a connection whose server or network stalled; the connection,
 * still owing that answer, is destroyed (the pool opens a new one when needed). Timed here rather
 * than with mysql2's own per-query timeout, which leaves its timer running when the connection dies
 * first and keeps the connection busy with the unanswered statement.
 */
function withQueryTimeout(connection: mysql2.PoolConnection, timeoutMs: number): void {
  const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
  const timed = (...args: unknown[]): unknown => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback !== 'function') {
      return query(...args);
    }
    let answered = false;
    const timer = setTimeout(() => {
      answered = true;
      connection.destroy();
      const error: NodeJS.ErrnoException = new Error(`the database did not answer within ${timeoutMs} ms`);
      error.code = QUERY_TIMEOUT_CODE;
      (callback as QueryCallback)(error);
    }, timeoutMs);
    args[last] = (error: Error | null, ...results: unknown[]) => {
      clearTimeout(timer);
      if (!answered) {
        answered = true;
        (callback as QueryCallback)(error, ...results);
      }
    };
    return query(...args);
  };
  connection.query = timed as typeof connection.query;
}

/**
 * A request waits at most `timeoutMs` for a connection of `pool` (a free one, or a new one's
 * handshake); mysql2's pool would queue it for ever. A connection that arrives after the wait gave
 * up goes straight back to the pool.
 */
function withAcquireTimeout(pool: mysql2.Pool, timeoutMs: number): void {
  const getConnection = pool.getConnection.bind(pool) as (callback: ConnectionCallback) => void;
  const timed = (callback: ConnectionCallback): void => {
    let waiting = true;
    const timer = setTimeout(() => {
      waiting = false;
      const error: NodeJS.ErrnoException = new Error(`no database connection within ${timeoutMs} ms`);
      error.code = ACQUIRE_TIMEOUT_CODE;
      callback(error);
    }, timeoutMs);
    getConnection((error, connection) => {
      clearTimeout(timer);
      if (waiting) {
        waiting = false;
        callback(error, connection);
      } else {
        connection?.release();
      }
    });
  };
  pool.getConnection = timed as typeof pool.getConnection;
}

/**
 * Calls `report` when a statement of `connection` fails in a way that means its node is down or out
 * of the cluster (failover-pool.ts), so that the next requests go to another node.
 */
function reportingNodeFailures(connection: mysql2.PoolConnection, report: () => void): void {
  const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
  const watched = (...args: unknown[]): unknown => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: Error | null, ...results: unknown[]) => {
        if (error && meansNodeDown(error)) {
          report();
        }
        (callback as QueryCallback)(error, ...results);
      };
    }
    return query(...args);
  };
  connection.query = watched as typeof connection.query;
}

type MysqlConfig = Extract<DatabaseConfig, { driver: 'mysql' }>;

/**
 * A mysql2 pool whose every connection is switched to UTC before its first query (so that the
 * database's own CURRENT_TIMESTAMP agrees with the timestamps the service writes and reads) and, on
 * a Galera cluster, to the configured wsrep_sync_wait, with the timeouts of `config`: a stalled
 * database answers 503 rather than holding requests.
 */
function hookedPool(config: MysqlConfig, options: mysql2.PoolOptions, onNodeDown?: () => void): mysql2.Pool {
  // A new connection's handshake is part of acquiring it: a server that accepts the connection
  // but never greets fails it (at start-up too) rather than hanging.
  // A handshake waits no longer than a request would wait for the connection, nor than
  // DB_CONNECT_TIMEOUT_MS (a server that accepts and never answers fails the start-up).
  const pool = mysql2.createPool({
    ...options,
    connectTimeout: Math.min(config.acquireTimeoutMs, config.connectTimeoutMs ?? config.acquireTimeoutMs),
  });
  pool.on('connection', (connection) => {
    if (config.queryTimeoutMs > 0) {
      withQueryTimeout(connection, config.queryTimeoutMs);
    }
    if (onNodeDown) {
      reportingNodeFailures(connection, onNodeDown);
    }
    connection.query("SET time_zone = '+00:00'");
    if (config.wsrepSyncWait !== undefined) {
      connection.query('SET SESSION wsrep_sync_wait = ?', [config.wsrepSyncWait]);
    }
  });
  withAcquireTimeout(pool, config.acquireTimeoutMs);
  return pool;
}

/**
 * mysql2 with hookedPool's pools; with several hosts in DATABASE_URL, one pool per node behind a
 * FailoverPool (the first node in use, the next ones when it fails).
 */
function mysqlDriver(config: MysqlConfig) {
  return {
    ...mysql2,
    createPool(options: mysql2.PoolOptions): mysql2.Pool {
      const hosts = hostsOf(config);
      if (hosts.length < 2) {
        return hookedPool(config, options);
      }
      const failover: FailoverPool = new FailoverPool({
        hosts,
        retryAfterMs: config.failoverRetryMs ?? 5000,
        createPool: (host, index) =>
          hookedPool(config, { ...options, host: host.host, port: host.port }, () =>
            failover.reportFailure(index),
          ),
      });
      return failover as unknown as mysql2.Pool;
    },
  };
}

/** TypeORM's connection settings for DATABASE_URL: its URL, or its parts when it names several hosts. */
function mysqlLocation(config: MysqlConfig) {
  if (hostsOf(config).length < 2) {
    return { url: config.url };
  }
  const url = parseDatabaseUrl(config.url);
  return {
    host: url.hosts[0].host,
    port: url.hosts[0].port,
    username: url.user,
    password: url.password,
    database: url.database,
  };
}

/** The only place TypeORM options are written; the app and the migration CLI both use it. */
export function buildTypeOrmOptions(config: DatabaseConfig): DataSourceOptions {
  // The entities' per-dialect column defaults (src/common/database/columns.ts) answer for this one.
  useDialect(config.driver);
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
      ...mysqlLocation(config),
      connectorPackage: 'mysql2',
      driver: mysqlDriver(config),
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
    // How long a statement waits for the file's lock held by another process (then SQLITE_BUSY, 503).
    timeout: config.busyTimeoutMs,
  };
}
