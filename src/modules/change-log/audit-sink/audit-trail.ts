import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import { packageInfo } from 'src/bootstrap/package-info';
import { appMetrics } from 'src/common/metrics/metrics';
import { appConfig, type AppConfig } from 'src/config/app.config';
import {
  ChangeLogRepository,
  type OpenTransaction,
  type TransactionEndListener,
} from 'src/modules/change-log/change-log.repository';
import { AuditSink } from './audit-sink';
import { type AuditEntry, transportFor } from './transports';

/** How long a shutdown waits for the queued entries to go out. */
const SHUTDOWN_GRACE_MS = 2000;

/**
 * The change log off the box (AUDIT_SINK_URL, docs/decisions.md#d162): each entry goes to the sink
 * once the transaction that wrote it has committed (an entry of a change rolled back is never sent),
 * in commit order. Without AUDIT_SINK_URL it does nothing.
 */
@Injectable()
export class AuditTrail implements TransactionEndListener, OnModuleInit, OnApplicationShutdown {
  private readonly sink?: AuditSink;
  /** The entries written in a transaction still open, by that transaction. */
  private readonly pending = new WeakMap<OpenTransaction, AuditEntry[]>();

  constructor(
    private readonly entries: ChangeLogRepository,
    @Inject(appConfig.KEY) config: AppConfig,
  ) {
    if (config.auditSinkUrl !== undefined) {
      this.sink = new AuditSink(
        transportFor(config.auditSinkUrl, packageInfo().name),
        { capacity: config.auditSinkQueue },
        appMetrics(),
        new Logger('AuditSink'),
      );
    }
  }

  onModuleInit(): void {
    if (this.sink) {
      this.entries.onTransactionEnd(this);
    }
  }

  /**
   * An entry was written through `manager` (undefined: the data source's own, outside a
   * transaction): sent now, or when its transaction commits.
   */
  recorded(manager: TransactionManager | undefined, entry: AuditEntry): void {
    if (!this.sink) {
      return;
    }
    const transaction = this.entries.openTransactionOf(manager);
    if (!transaction) {
      this.sink.enqueue(entry);
      return;
    }
    const entries = this.pending.get(transaction);
    if (entries) {
      entries.push(entry);
    } else {
      this.pending.set(transaction, [entry]);
    }
  }

  /** The outermost commit (a savepoint released is none): the entries it wrote go out. */
  committed(transaction: OpenTransaction): void {
    const entries = this.pending.get(transaction);
    if (entries) {
      this.pending.delete(transaction);
      entries.forEach((entry) => this.sink!.enqueue(entry));
    }
  }

  rolledBack(transaction: OpenTransaction): void {
    this.pending.delete(transaction);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sink?.close(SHUTDOWN_GRACE_MS);
  }
}
