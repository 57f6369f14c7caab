import { Injectable } from '@nestjs/common';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import { ChangeLogRepository } from './change-log.repository';
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
    private readonly entries: ChangeLogRepository,
    private readonly trail: AuditTrail,
  ) {}

  /**
   * Adds an entry through `manager`, i.e. inside the transaction of the change it describes; counted
   * per resource (the first segment of the route's path) and, once committed, sent to the audit sink.
   * With no manager (a read's entry), it is written on the data source's own and sent at once.
   */
  async record(
    manager: TransactionManager | undefined,
    user: Pick<CurrentUser, 'id' | 'username'>,
    message: string,
    resource: string,
  ): Promise<void> {
    await this.entries.add(manager, { level: API_CHANGE, message, userId: user.id, ticketNum: null });
    appMetrics().changeLogWrites.inc({ resource });
    this.trail.recorded(manager, { time: new Date(), level: API_CHANGE, user: user.username, message });
  }

  /** The entries of the last `days` days, newest first, and how many there are before paging. */
  async list(query: LogQuery): Promise<{ entries: LogView[]; count: number }> {
    const since = new Date(Date.now() - query.days * 86_400_000);
    const { rows, count } = await this.entries.list(query, since);
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
    return this.entries.countSince(since);
  }
}
