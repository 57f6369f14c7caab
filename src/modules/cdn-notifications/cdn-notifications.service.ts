import { Injectable, NotFoundException } from '@nestjs/common';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { CdnNotificationsRepository } from './cdn-notifications.repository';
import type { CdnNotificationRow } from './dto/cdn-notification.response';
import { CdnNotificationDto } from './dto/cdn-notification.dto';

/** CDN notifications (docs/original-behaviour.md#cdn-notifications). */
@Injectable()
export class CdnNotificationsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly notifications: CdnNotificationsRepository,
  ) {}

  list(query: ListQuery): Promise<CdnNotificationRow[]> {
    return this.notifications.list(query);
  }

  /** Writes the notification as the signed-in user; an unknown CDN is 404 `cdn not found`. */
  async create(dto: CdnNotificationDto, user: CurrentUser): Promise<CdnNotificationRow> {
    const cdnId = await this.notifications.cdnId(dto.cdn);
    if (cdnId === undefined) {
      throw new NotFoundException('cdn not found');
    }
    const id = await this.notifications.add({ cdnId, userId: user.id, notification: dto.notification });
    return (await this.notifications.byId(id))!;
  }

  /** Deletes one notification and answers it; unknown: 404 `No CDN Notification for <id>`. */
  remove(id: number): Promise<CdnNotificationRow> {
    return this.unitOfWork.run(async (manager) => {
      const row = await this.notifications.lockedById(manager, id);
      if (!row) {
        throw new NotFoundException(`No CDN Notification for ${id}`);
      }
      await this.notifications.remove(manager, id);
      return row;
    });
  }
}
