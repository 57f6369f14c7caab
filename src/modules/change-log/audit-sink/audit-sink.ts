import type { Logger } from '@nestjs/common';
import type { AppMetrics } from 'src/common/metrics/metrics';
import type { AuditEntry, AuditTransport } from './transports';

export interface AuditSinkOptions {
  /** Entries kept while the sink is down; past that the oldest is dropped and counted. */
  capacity: number;
  /** The first wait after a failure, doubled after each one up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * Sends change-log entries to a transport one at a time, in the order they were committed
 * (docs/decisions.md#d162). Nothing here is awaited by a write: `enqueue` only appends to a
 * bounded queue. A failed send is retried (after a growing wait) until it succeeds, the entry
 * staying first in line, so the receiver gets the entries in order and none twice from the queue's
 * side; entries that could not be kept (queue full) or sent (still queued at shutdown) are counted
 * in `audit_sink_unsent_total` and logged.
 */
export class AuditSink {
  private readonly queue: AuditEntry[] = [];
  private sending = false;
  private closed = false;
  private failing = false;
  private backoff: number;
  private wake?: () => void;
  private timer?: NodeJS.Timeout;
  private readonly labels: { sink: string };

  constructor(
    private readonly transport: AuditTransport,
    private readonly options: AuditSinkOptions,
    private readonly metrics: AppMetrics,
    private readonly log: Logger,
  ) {
    this.backoff = options.backoffMs ?? 250;
    this.labels = { sink: transport.kind };
    metrics.auditQueued.set(this.labels, 0);
  }

  get queued(): number {
    return this.queue.length;
  }

  enqueue(entry: AuditEntry): void {
    if (this.closed) {
      this.unsent(1, 'shutdown');
      return;
    }
    if (this.queue.length >= this.options.capacity) {
      this.queue.shift();
      this.unsent(1, 'queue_full');
    }
    this.queue.push(entry);
    this.metrics.auditQueued.set(this.labels, this.queue.length);
    if (!this.sending) {
      void this.pump();
    }
  }

  private unsent(count: number, reason: 'queue_full' | 'shutdown'): void {
    this.metrics.auditUnsent.inc({ ...this.labels, reason }, count);
    this.log.warn(
      `audit sink (${this.transport.kind}): ${count} change-log entr${count === 1 ? 'y' : 'ies'} not sent (${reason === 'queue_full' ? `queue full at ${this.options.capacity}` : 'still queued at shutdown'})`,
    );
  }

  private async pump(): Promise<void> {
    this.sending = true;
    try {
      while (this.queue.length > 0 && !this.closed) {
        const entry = this.queue[0];
        try {
          await this.transport.send(entry);
        } catch (error) {
          if (!this.failing) {
            this.failing = true;
            this.log.warn(
              `audit sink (${this.transport.kind}) is failing, retrying: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
          await this.pause();
          this.backoff = Math.min(this.backoff * 2, this.options.maxBackoffMs ?? 30_000);
          continue;
        }
        if (this.queue[0] === entry) {
          this.queue.shift();
        }
        this.metrics.auditSent.inc(this.labels);
        this.metrics.auditQueued.set(this.labels, this.queue.length);
        if (this.failing) {
          this.failing = false;
          this.log.log(`audit sink (${this.transport.kind}) is sending again`);
        }
        this.backoff = this.options.backoffMs ?? 250;
      }
    } finally {
      this.sending = false;
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, this.backoff);
      this.timer.unref();
    });
  }

  /** Gives the queue up to `graceMs` to drain, then counts what is left as unsent. */
  async close(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (this.queue.length > 0 && this.sending && !this.failing && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    this.closed = true;
    clearTimeout(this.timer);
    this.wake?.();
    if (this.queue.length > 0) {
      this.unsent(this.queue.length, 'shutdown');
      this.queue.length = 0;
      this.metrics.auditQueued.set(this.labels, 0);
    }
    this.transport.close();
  }
}
