import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  type EntityManager,
  type EntitySubscriberInterface,
  type QueryRunner,
  type TransactionCommitEvent,
  type TransactionRollbackEvent,
} from 'typeorm';
import { packageInfo } from 'src/bootstrap/package-info';
import { appMetrics } from 'src/common/metrics/metrics';
import { appConfig, type AppConfig } from 'src/config/app.config';
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
export class AuditTrail implements EntitySubscriberInterface, OnModuleInit, OnApplicationShutdown {
  private readonly sink?: AuditSink;
  /** The entries written in a transaction still open, by its query runner. */
  private readonly pending = new WeakMap<QueryRunner, AuditEntry[]>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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
      this.dataSource.subscribers.push(this);
    }
  }

  /** An entry was written through `manager`: sent now, or when its transaction commits. */
  recorded(manager: EntityManager, entry: AuditEntry): void {
    if (!this.sink) {
      return;
    }
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive) {
      this.sink.enqueue(entry);
      return;
    }
    const entries = this.pending.get(runner);
    if (entries) {
      entries.push(entry);
    } else {
      this.pending.set(runner, [entry]);
    }
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // Also called when a savepoint is released: the entries wait for the outermost commit.
    if (event.queryRunner.isTransactionActive) {
      return;
    }
    const entries = this.pending.get(event.queryRunner);
    if (entries) {
      this.pending.delete(event.queryRunner);
      entries.forEach((entry) => this.sink!.enqueue(entry));
    }
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) {
      this.pending.delete(event.queryRunner);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sink?.close(SHUTDOWN_GRACE_MS);
  }
}
