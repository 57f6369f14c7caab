import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  Repository,
  SelectQueryBuilder,
} from 'typeorm';
import { insertRows } from 'src/common/database/insert-rows';
import { LogEntry } from './log.entity';
import type { LogQuery } from './logs.query';

/** An entry's columns as written. */
export type LogColumns = Pick<LogEntry, 'level' | 'message' | 'userId' | 'ticketNum'>;

/** A transaction still open, as the audit trail keeps its entries by it (a key, nothing to call). */
export type OpenTransaction = object;

/** What the audit trail is told when a transaction ends (the outermost commit or rollback only). */
export interface TransactionEndListener {
  committed(transaction: OpenTransaction): void;
  rolledBack(transaction: OpenTransaction): void;
}

/**
 * The log table, and the transaction events the audit trail sends its entries on: the only file of
 * the module that touches TypeORM (docs/architecture.md#data-access, docs/decisions.md#d192). Other
 * modules' writes reach it through ChangeLogService.record with their manager.
 */
@Injectable()
export class ChangeLogRepository {
  constructor(
    @InjectRepository(LogEntry) private readonly entries: Repository<LogEntry>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Adds an entry through `manager` (the data source's own when undefined). */
  async add(manager: EntityManager | undefined, columns: LogColumns): Promise<void> {
    await insertRows(manager ?? this.dataSource.manager, LogEntry, columns);
  }

  /** The page of entries written after `since`, newest first, with their usernames, and the count of all. */
  async list(query: LogQuery, since: Date): Promise<{ rows: LogEntry[]; count: number }> {
    const matching = (): SelectQueryBuilder<LogEntry> => {
      const qb = this.entries
        .createQueryBuilder('l')
        .innerJoin('l.user', 'u')
        .where('l.last_updated > :since', { since });
      return query.username === undefined ? qb : qb.andWhere('u.username = :username', query);
    };
    const page = matching()
      .select(['l.id', 'l.level', 'l.message', 'l.ticketNum', 'l.lastUpdated', 'u.username'])
      .orderBy('l.last_updated', 'DESC')
      .addOrderBy('l.id', 'DESC');
    if (query.limit !== undefined) {
      page.limit(query.limit).offset(query.offset);
    }
    const [rows, count] = await Promise.all([page.getMany(), matching().getCount()]);
    return { rows, count };
  }

  /** How many entries were written after `since`. */
  countSince(since: Date): Promise<number> {
    return this.entries.createQueryBuilder('l').where('l.last_updated > :since', { since }).getCount();
  }

  /** The transaction `manager` writes in, while it is open; undefined outside one. */
  openTransactionOf(manager: EntityManager | undefined): OpenTransaction | undefined {
    const runner = manager?.queryRunner;
    return runner?.isTransactionActive ? runner : undefined;
  }

  /**
   * Tells `listener` of every transaction's end. A savepoint released or rolled back inside a
   * transaction is not its end: the listener hears of the outermost commit or rollback only.
   */
  onTransactionEnd(listener: TransactionEndListener): void {
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: (event) => {
        if (!event.queryRunner.isTransactionActive) {
          listener.committed(event.queryRunner);
        }
      },
      afterTransactionRollback: (event) => {
        if (!event.queryRunner.isTransactionActive) {
          listener.rolledBack(event.queryRunner);
        }
      },
    };
    this.dataSource.subscribers.push(subscriber);
  }
}
