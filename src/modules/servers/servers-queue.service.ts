import { UnitOfWork } from 'src/common/database/unit-of-work';
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
    private readonly unitOfWork: UnitOfWork,
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
    return this.unitOfWork.run(async (manager) => {
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

  /**
   * After a change of a delivery service's invalidation jobs, flags the servers of its CDN that apply
   * them (status ONLINE, REPORTED or ADMIN_DOWN, with a profile holding the `location` parameter of
   * `regex_revalidate.config`): `revalidate_update_time`, or `config_update_time` when
   * `useRevalPending` is false, set to now (docs/original-behaviour.md#jobs).
   */
  async flagInvalidation(deliveryServiceId: number, useRevalPending: boolean): Promise<void> {
    const now = new Date();
    await this.dataSource
      .createQueryBuilder()
      .update(Server)
      .set(useRevalPending ? { revalidateUpdateTime: now } : { configUpdateTime: now })
      .where("status IN (SELECT st.id FROM status st WHERE st.name IN ('ONLINE', 'REPORTED', 'ADMIN_DOWN'))")
      .andWhere(
        'id IN (SELECT sp.server FROM server_profile sp ' +
          'JOIN profile_parameter pp ON pp.profile = sp.profile ' +
          "JOIN parameter p ON p.id = pp.parameter WHERE p.name = 'location' AND p.config_file = 'regex_revalidate.config')",
      )
      .andWhere('cdn_id = (SELECT ds.cdn_id FROM deliveryservice ds WHERE ds.id = :deliveryServiceId)', {
        deliveryServiceId,
      })
      .execute();
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

  /**
   * Queues (or clears) updates on the servers of one CDN in the cache groups of a topology's nodes
   * (topologies/{name}/queue_update).
   */
  async queueTopology(topology: string, cdnId: number, action: 'queue' | 'dequeue'): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(Server)
      .set(this.pendingChange(action))
      .where('cdn_id = :cdnId', { cdnId })
      .andWhere(
        'cachegroup IN (SELECT cg.id FROM cachegroup cg JOIN topology_cachegroup tc ON tc.cachegroup = cg.name ' +
          'WHERE tc.topology = :topology)',
        { topology },
      )
      .execute();
  }

  /**
   * Queues (or clears) updates on every server of a CDN, optionally only those of a type and/or
   * with a profile, both by name (cdns/{id}/queue_update); 404s in the original's words.
   */
  async queueCdn(
    cdnId: number,
    action: 'queue' | 'dequeue',
    filters: { type?: string; profile?: string },
  ): Promise<void> {
    await this.unitOfWork.run(async (manager) => {
      if (!(await manager.findOne(Cdn, { where: { id: cdnId } }))) {
        throw new NotFoundException('Not Found');
      }
      const qb = manager
        .createQueryBuilder()
        .update(Server)
        .set(this.pendingChange(action))
        .where('cdn_id = :cdnId', { cdnId });
      if (filters.type) {
        const [type] = await manager.query<{ id: number }[]>('SELECT id FROM type WHERE name = ?', [
          filters.type,
        ]);
        if (!type) {
          throw new NotFoundException('no type ID found with that name');
        }
        qb.andWhere('type = :typeId', { typeId: Number(type.id) });
      }
      if (filters.profile) {
        const [profile] = await manager.query<{ id: number }[]>('SELECT id FROM profile WHERE name = ?', [
          filters.profile,
        ]);
        if (!profile) {
          throw new NotFoundException('no profile ID found with that name');
        }
        qb.andWhere('id IN (SELECT sp.server FROM server_profile sp WHERE sp.profile = :profileId)', {
          profileId: Number(profile.id),
        });
      }
      await qb.execute();
    });
  }

  /** Queueing sets the update time to now; dequeueing back to the apply time. */
  private pendingChange(action: 'queue' | 'dequeue') {
    return action === 'queue'
      ? { configUpdateTime: new Date() }
      : { configUpdateTime: () => 'config_apply_time' };
  }
}
