import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { Cachegroup } from 'src/modules/cachegroups/cachegroup.entity';
import { Cdn } from 'src/modules/cdns/cdn.entity';
import type { QueueUpdateRequest } from './dto/queue-update.dto';
import type { CurrentUser } from 'src/common/types/current-user';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { Server } from './server.entity';

export interface QueueUpdateResult {
  cachegroupName: string;
  action: string;
  serverNames: string[];
  cdn: string;
  cachegroupID: number;
}

/**
 * Queues (or clears) configuration updates on every server of a cache group in one CDN, whatever
 * their type: one UPDATE. Queueing sets `config_update_time` to now; dequeueing sets it to
 * `config_apply_time`, so that `updPending` (update time later than apply time) turns false.
 */
@Injectable()
export class ServersQueueService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly locks: CdnLocksService,
  ) {}

  /**
   * Queueing (not dequeueing) is refused while another user holds a lock on the CDN that is not
   * shared with `user` (docs/original-behaviour.md#cdn-locks).
   */
  queueUpdates(
    cachegroupId: number,
    request: QueueUpdateRequest,
    user: CurrentUser,
  ): Promise<QueueUpdateResult> {
    return this.dataSource.transaction(async (manager) => {
      const cdn = await this.cdnOf(manager, request);
      const cachegroup = await manager.findOne(Cachegroup, {
        select: { id: true, name: true },
        where: { id: cachegroupId },
      });
      if (!cachegroup) {
        throw new NotFoundException('cachegroup not found');
      }
      if (request.action === 'queue') {
        await this.locks.assertHoldsLock(cdn.id, user);
      }
      await manager
        .createQueryBuilder()
        .update(Server)
        .set(
          request.action === 'queue'
            ? { configUpdateTime: new Date() }
            : { configUpdateTime: () => 'config_apply_time' },
        )
        .where('cachegroup = :cachegroupId AND cdn_id = :cdnId', { cachegroupId, cdnId: cdn.id })
        .execute();
      const servers = await manager.find(Server, {
        select: { id: true, hostName: true },
        where: { cachegroupId, cdnId: cdn.id },
        order: { hostName: 'ASC', id: 'ASC' },
      });
      return {
        cachegroupName: cachegroup.name,
        action: request.action,
        serverNames: servers.map((s) => s.hostName),
        cdn: cdn.name,
        cachegroupID: cachegroupId,
      };
    });
  }

  /** The CDN named by `cdnId` and/or `cdn`; both given must name the same one (docs/decisions.md#d8). */
  private async cdnOf(manager: EntityManager, request: QueueUpdateRequest): Promise<Cdn> {
    let byId: Cdn | null = null;
    if (request.cdnId !== undefined) {
      byId = await manager.findOne(Cdn, { where: { id: request.cdnId } });
      if (!byId) {
        throw new BadRequestException(`cdn id ${request.cdnId} does not exist`);
      }
    }
    if (request.cdn === undefined) {
      return byId!;
    }
    const byName = await manager.findOne(Cdn, { where: { name: request.cdn } });
    if (!byName) {
      throw new BadRequestException(`cdn ${request.cdn} does not exist`);
    }
    if (byId && byId.id !== byName.id) {
      throw new BadRequestException(
        `cdn '${request.cdn}' and cdnId ${request.cdnId} do not name the same CDN`,
      );
    }
    return byName;
  }
}
