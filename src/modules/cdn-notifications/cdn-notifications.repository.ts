import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import { CdnNotification } from './cdn-notification.entity';
import type { CdnNotificationRow } from './dto/cdn-notification.response';

interface RawRow {
  id: number | string;
  cdn: string;
  lastUpdated: Date | string;
  notification: string;
  user: string;
}

/** The cdn_notification table: the only file of the module that runs SQL (docs/architecture.md#data-access). */
@Injectable()
export class CdnNotificationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(query: ListQuery): Promise<CdnNotificationRow[]> {
    const rows = await applyListQuery(this.rows(), query).getRawMany<RawRow>();
    return rows.map(toRow);
  }

  /** The id of the CDN with this name, or undefined. */
  async cdnId(name: string): Promise<number | undefined> {
    const [cdn] = await this.dataSource.query<{ id: number }[]>('SELECT id FROM cdn WHERE name = ?', [name]);
    return cdn ? Number(cdn.id) : undefined;
  }

  /** Adds a notification: its id. */
  add(columns: Pick<CdnNotification, 'cdnId' | 'userId' | 'notification'>): Promise<number> {
    return insertRow(this.dataSource.manager, CdnNotification, columns);
  }

  async byId(id: number): Promise<CdnNotificationRow | undefined> {
    const row = await this.rows().where('n.id = :id', { id }).getRawOne<RawRow>();
    return row ? toRow(row) : undefined;
  }

  /** The notification, its row locked on `manager`'s transaction first, or undefined. */
  async lockedById(manager: EntityManager, id: number): Promise<CdnNotificationRow | undefined> {
    const found = await manager.findOne(CdnNotification, { where: { id }, lock: writeLock(this.dataSource) });
    return found ? this.byId(id) : undefined;
  }

  async remove(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(CdnNotification, { id });
  }

  private rows() {
    return this.dataSource
      .createQueryBuilder()
      .from(CdnNotification, 'n')
      .innerJoin('cdn', 'c', 'c.id = n.cdn_id')
      .innerJoin('tm_user', 'u', 'u.id = n.tm_user_id')
      .select('n.id', 'id')
      .addSelect('c.name', 'cdn')
      .addSelect('n.last_updated', 'lastUpdated')
      .addSelect('n.notification', 'notification')
      .addSelect('u.username', 'user');
  }
}

function toRow(raw: RawRow): CdnNotificationRow {
  return {
    id: Number(raw.id),
    cdn: raw.cdn,
    lastUpdated: toDate(raw.lastUpdated),
    notification: raw.notification,
    user: raw.user,
  };
}
