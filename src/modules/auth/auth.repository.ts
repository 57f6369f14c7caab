import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { insertRows } from 'src/common/database/insert-rows';
import { EndedSession } from './ended-session.entity';

/** The ended_session table: the only file of the module that runs SQL (docs/architecture.md#data-access). */
@Injectable()
export class AuthRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The ids of the user's ended sessions whose records expire after `second` (Unix seconds). */
  async endedSessionIds(userId: number, second: number): Promise<string[]> {
    const rows = await this.dataSource.query<{ session_id: string }[]>(
      'SELECT session_id FROM ended_session WHERE tm_user_id = ? AND expires > ?',
      [userId, second],
    );
    return rows.map((row) => row.session_id);
  }

  /** Deletes, on `manager`, the records that expired by `second`. */
  async pruneEnded(manager: EntityManager, second: number): Promise<void> {
    await manager.query('DELETE FROM ended_session WHERE expires <= ?', [second]);
  }

  /** Records an ended session on `manager` (a duplicate is the unique index's error). */
  async addEnded(
    manager: EntityManager,
    row: Pick<EndedSession, 'sessionId' | 'userId' | 'expires'>,
  ): Promise<void> {
    await insertRows(manager, EndedSession, row);
  }
}
