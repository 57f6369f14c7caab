import { insertRows } from 'src/common/database/insert-rows';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { LogEntry } from './log.entity';
import { AuditTrail } from './audit-sink/audit-trail';
import { appMetrics } from 'src/common/metrics/metrics';
import type { CurrentUser } from 'src/common/types/current-user';
import type { LogQuery } from './logs.query';

/** The level of every entry this API writes (the original's API changes). */
export const API_CHANGE = 'APICHANGE';

export interface LogView {
  id: number;
  level: string | null;
  message: string;
  ticketNum: string | null;
  user: string;
  lastUpdated: Date;
}

@Injectable()
export class ChangeLogService {
  constructor(
    @InjectRepository(LogEntry) private readonly entries: Repository<LogEntry>,
    private readonly trail: AuditTrail,
  ) {}

  /**
   * Adds an entry through `manager`, i.e. inside the transaction of the change it describes; counted
   * per resource (the first segment of the route's path) and, once committed, sent to the audit sink.
   */
  async record(
    manager: EntityManager,
    user: Pick<CurrentUser, 'id' | 'username'>,
    message: string,
    resource: string,
  ): Promise<void> {
    await insertRows(manager, LogEntry, { level: API_CHANGE, message, userId: user.id, ticketNum: null });
    appMetrics().changeLogWrites.inc({ resource });
    this.trail.recorded(manager, { time: new Date(), level: API_CHANGE, user: user.username, message });
  }

  /** The entries of the last `days` days, newest first, and how many there are before paging. */
  async list(query: LogQuery): Promise<{ entries: LogView[]; count: number }> {
    const since = new Date(Date.now() - query.days * 86_400_000);
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
    return {
      entries: rows.map((row) => ({
        id: row.id,
        level: row.level,
        message: row.message,
        ticketNum: row.ticketNum,
        user: row.user?.username ?? '',
        lastUpdated: row.lastUpdated,
      })),
      count,
    };
  }

  /** How many entries were written after `since` (GET /logs/newcount). */
  countSince(since: Date): Promise<number> {
    return this.entries.createQueryBuilder('l').where('l.last_updated > :since', { since }).getCount();
  }
}
