import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { type ComputedMetric, RouteSeries, type SampleValue } from './route-series';

/** A database pool's figures at scrape time (MySQL; the embedded SQLite file has no pool). */
export interface PoolFigures {
  size: number;
  open: number;
  inUse: number;
  waiting: number;
}

/** Counts per label set, kept as plain numbers and turned into a counter when scraped. */
class CountedSeries<L extends Record<string, string>> {
  private readonly counts = new Map<string, { labels: L; value: number }>();

  inc(key: string, labels: () => L): void {
    const entry = this.counts.get(key);
    if (entry) {
      entry.value++;
    } else {
      this.counts.set(key, { labels: labels(), value: 1 });
    }
  }

  metric(name: string, help: string): ComputedMetric {
    const values = (): SampleValue[] =>
      [...this.counts.values()].map(({ labels, value }) => ({ labels: { ...labels }, value }));
    return {
      name,
      help,
      type: 'counter',
      aggregator: 'sum',
      get: () => ({ name, help, type: 'counter', aggregator: 'sum', values: values() }),
    };
  }
}

/**
 * The service's metrics (docs/decisions.md#d160): one registry per process, read by GET /metrics
 * (src/common/metrics/metrics-endpoint.ts; summed over the workers of a cluster). Every label has a
 * bounded set of values: route templates, methods, API versions, status classes, kinds and results.
 */
export class AppMetrics {
  readonly registry = new Registry();
  readonly requests = new RouteSeries();
  /** GETs that carried If-None-Match or If-Modified-Since: `result` 304 (not modified) or 200. */
  readonly conditional = new CountedSeries<{ route: string; result: string }>();
  readonly dbFailures: Counter<'kind'>;
  /** Request transactions run again after a certification failure or deadlock, by outcome. */
  readonly transactionRetries: Counter<'outcome'>;
  readonly signIns: Counter<'result'>;
  readonly changeLogWrites: Counter<'resource'>;
  readonly snapshotBuild: Histogram<'document'>;
  readonly auditSent: Counter<'sink'>;
  readonly auditUnsent: Counter<'sink' | 'reason'>;
  readonly auditQueued: Gauge<'sink'>;
  private pool: () => PoolFigures | undefined = () => undefined;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const requests = this.requests;
    this.registry.registerMetric(
      requests.counter(
        'http_requests_total',
        'Requests answered, per route template, method, API version and status class',
      ) as never,
    );
    this.registry.registerMetric(
      requests.histogram(
        'http_request_duration_seconds',
        'Time to answer a request, per route template, method, API version and status class',
      ) as never,
    );
    this.registry.registerMetric(
      this.conditional.metric(
        'http_conditional_responses_total',
        'Conditional GETs (If-None-Match / If-Modified-Since) per route template: 304 not modified, 200 changed',
      ) as never,
    );
    this.dbFailures = new Counter({
      name: 'db_failures_total',
      help: 'Database failures answered to a request, per kind (timeout: a statement or a connection took too long; contention: a deadlock or lock wait that was answered 503, after any retries)',
      labelNames: ['kind'],
      registers,
    });
    this.transactionRetries = new Counter({
      name: 'db_transaction_retries_total',
      help: 'Request transactions that ended in a certification failure or deadlock (1213), by what followed: retried, gave_up (503 after the last retry) or conflict (409: the request had effects outside the database)',
      labelNames: ['outcome'],
      registers,
    });
    this.signIns = new Counter({
      name: 'auth_sign_ins_total',
      help: 'Sign-ins by result: success, failure (wrong credentials), throttled (429)',
      labelNames: ['result'],
      registers,
    });
    this.changeLogWrites = new Counter({
      name: 'change_log_writes_total',
      help: 'Change-log entries written, per resource (first path segment)',
      labelNames: ['resource'],
      registers,
    });
    this.snapshotBuild = new Histogram({
      name: 'snapshot_build_seconds',
      help: 'Time to build a CDN snapshot document (crconfig, monitoring)',
      labelNames: ['document'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.auditSent = new Counter({
      name: 'audit_sink_sent_total',
      help: 'Change-log entries delivered to the audit sink',
      labelNames: ['sink'],
      registers,
    });
    this.auditUnsent = new Counter({
      name: 'audit_sink_unsent_total',
      help: 'Change-log entries that could not be delivered to the audit sink (queue full, or still failing at shutdown)',
      labelNames: ['sink', 'reason'],
      registers,
    });
    this.auditQueued = new Gauge({
      name: 'audit_sink_queued',
      help: 'Change-log entries waiting to be sent to the audit sink',
      labelNames: ['sink'],
      registers,
    });
    const pool = (): PoolFigures | undefined => this.pool();
    const poolGauge = (name: string, help: string, figure: keyof PoolFigures): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const figures = pool();
          if (figures) {
            this.set(figures[figure]);
          }
        },
      });
    };
    poolGauge('db_pool_size', 'Connections the database pool may open (DB_POOL_SIZE)', 'size');
    poolGauge('db_pool_open', 'Connections the database pool has open', 'open');
    poolGauge('db_pool_in_use', 'Pool connections lent to a request', 'inUse');
    poolGauge('db_pool_waiting', 'Requests waiting for a pool connection', 'waiting');
  }

  /** Where the pool gauges read their figures (the database pool, once open). */
  readPoolWith(reader: () => PoolFigures | undefined): void {
    this.pool = reader;
  }
}

let metrics: AppMetrics | undefined;

/** This process's metrics (made on first use: the default process metrics start then). */
export function appMetrics(): AppMetrics {
  metrics ??= new AppMetrics();
  return metrics;
}

/** The driver codes of a statement (DB_QUERY_TIMEOUT_MS) and a connection (DB_ACQUIRE_TIMEOUT_MS) that took too long. */
const TIMEOUT_KINDS: Record<string, string> = {
  PROTOCOL_SEQUENCE_TIMEOUT: 'statement_timeout',
  POOL_ACQUIRE_TIMEOUT: 'acquire_timeout',
};

/** Counts a database failure a request was answered with, by kind (timeouts by their own kinds). */
export function countDbFailure(kind: string, error: unknown): void {
  const code =
    (error as { driverError?: { code?: unknown }; code?: unknown } | null)?.driverError?.code ??
    (error as { code?: unknown } | null)?.code;
  appMetrics().dbFailures.inc({ kind: (typeof code === 'string' && TIMEOUT_KINDS[code]) || kind });
}
