import { EventEmitter } from 'node:events';
import type * as mysql2 from 'mysql2';
import type { DatabaseHost } from 'src/database/database-url';

type ConnectionCallback = (error: NodeJS.ErrnoException | null, connection?: mysql2.PoolConnection) => void;

/**
 * Errors after which a node is taken out of use for a while: it refused or dropped the connection,
 * did not answer, or answered that it is not part of the cluster's primary component (a Galera node
 * that is joining, desynced or cut off answers every statement with ER_UNKNOWN_COM_ERROR, 1047).
 */
const NODE_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'POOL_ACQUIRE_TIMEOUT',
  'ER_UNKNOWN_COM_ERROR',
]);

export function meansNodeDown(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && NODE_DOWN_CODES.has(code);
}

export interface FailoverPoolOptions {
  hosts: DatabaseHost[];
  /** Opens the pool of node `index` (with the service's connection hooks). */
  createPool(host: DatabaseHost, index: number): mysql2.Pool;
  /** How long a node that failed is left out before it is tried again. */
  retryAfterMs: number;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * One pool per node of DATABASE_URL, used as one: a connection comes from the first node in the
 * URL's order that is not out of use; when it fails to give one (refused, unanswered, not part of
 * the primary component), that node is left out for `retryAfterMs` and the next one is asked. So
 * each instance works on its own node (the one its URL names first), moves to the next one within
 * one request when that node dies, and returns to it once it answers again. A node is also taken out
 * when a statement on one of its connections fails that way (`reportFailure`). What TypeORM uses of
 * a mysql2 pool (getConnection, end, on) is all it offers.
 */
export class FailoverPool extends EventEmitter {
  private readonly pools: (mysql2.Pool | undefined)[];
  private readonly outUntil: number[];
  private readonly now: () => number;

  constructor(private readonly options: FailoverPoolOptions) {
    super();
    this.pools = options.hosts.map(() => undefined);
    this.outUntil = options.hosts.map(() => 0);
    this.now = options.now ?? Date.now;
  }

  /** The nodes to ask, in order: those in use by the URL's order, then those left out, soonest back first. */
  candidates(): number[] {
    const now = this.now();
    const indexes = this.options.hosts.map((_, i) => i);
    const inUse = indexes.filter((i) => this.outUntil[i] <= now);
    const out = indexes
      .filter((i) => this.outUntil[i] > now)
      .sort((a, b) => this.outUntil[a] - this.outUntil[b]);
    return [...inUse, ...out];
  }

  /** Takes node `index` out of use for a while (a failed connection or statement on it). */
  reportFailure(index: number): void {
    this.outUntil[index] = this.now() + this.options.retryAfterMs;
  }

  private poolOf(index: number): mysql2.Pool {
    let pool = this.pools[index];
    if (!pool) {
      pool = this.options.createPool(this.options.hosts[index], index);
      this.pools[index] = pool;
    }
    return pool;
  }

  getConnection(callback: ConnectionCallback): void {
    const order = this.candidates();
    const attempt = (position: number, lastError: NodeJS.ErrnoException | null): void => {
      if (position >= order.length) {
        callback(lastError);
        return;
      }
      const index = order[position];
      this.poolOf(index).getConnection((error, connection) => {
        if (!error) {
          callback(null, connection);
        } else if (meansNodeDown(error)) {
          this.reportFailure(index);
          this.emit('failover', { from: this.options.hosts[index], error });
          attempt(position + 1, error);
        } else {
          callback(error);
        }
      });
    };
    attempt(0, null);
  }

  end(callback?: (error: NodeJS.ErrnoException | null) => void): void {
    const open = this.pools.filter((pool): pool is mysql2.Pool => pool !== undefined);
    let pending = open.length;
    let first: NodeJS.ErrnoException | null = null;
    if (pending === 0) {
      callback?.(null);
      return;
    }
    for (const pool of open) {
      pool.end((error) => {
        first ??= error;
        if (--pending === 0) {
          callback?.(first);
        }
      });
    }
  }
}
