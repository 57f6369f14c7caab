import { UnitOfWork } from 'src/common/database/unit-of-work';
import { insertRow } from 'src/common/database/insert-rows';
import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import { writeLock } from 'src/common/database/locks';
import type { CurrentUser } from 'src/common/types/current-user';
import { CdnNotification } from './cdn-notification.entity';
import type { CdnNotificationRow } from './dto/cdn-notification.response';
import { CdnNotificationDto } from './dto/cdn-notification.dto';

interface RawRow {
  id: number | string;
  cdn: string;
  lastUpdated: Date | string;
  notification: string;
  user: string;
}

/** CDN notifications (docs/original-behaviour.md#cdn-notifications). */
@Injectable()
export class CdnNotificationsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list(query: ListQuery): Promise<CdnNotificationRow[]> {
    const rows = await applyListQuery(this.rows(), query).getRawMany<RawRow>();
    return rows.map(toRow);
  }

  /** Writes the notification as the signed-in user; an unknown CDN is 404 `cdn not found`. */
  async create(dto: CdnNotificationDto, user: CurrentUser): Promise<CdnNotificationRow> {
    const cdn = await this.dataSource.query<{ id: number }[]>('SELECT id FROM cdn WHERE name = ?', [dto.cdn]);
    if (cdn.length === 0) {
      throw new NotFoundException('cdn not found');
    }
    const id = await insertRow(this.dataSource.manager, CdnNotification, {
      cdnId: Number(cdn[0].id),
      userId: user.id,
      notification: dto.notification,
    });
    return (await this.byId(id))!;
  }

  /** Deletes one notification and answers it; unknown: 404 `No CDN Notification for <id>`. */
  async remove(id: number): Promise<CdnNotificationRow> {
    return this.unitOfWork.run(async (manager) => {
      const found = await manager.findOne(CdnNotification, {
        where: { id },
        lock: writeLock(this.dataSource),
      });
      if (!found) {
        throw new NotFoundException(`No CDN Notification for ${id}`);
      }
      const row = (await this.byId(id))!;
      await manager.delete(CdnNotification, { id });
      return row;
    });
  }

  private async byId(id: number): Promise<CdnNotificationRow | undefined> {
    const row = await this.rows().where('n.id = :id', { id }).getRawOne<RawRow>();
    return row ? toRow(row) : undefined;
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
