import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import type { Cdn } from 'src/modules/cdns/cdn.entity';
import type { QueueUpdateRequest } from './dto/queue-update.dto';
import type { CurrentUser } from 'src/common/types/current-user';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { ServerUpdatesRepository } from './server-updates.repository';

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
    private readonly servers: ServerUpdatesRepository,
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
      const cachegroup = await this.servers.cachegroupById(manager, cachegroupId);
      if (!cachegroup) {
        throw new NotFoundException('cachegroup not found');
      }
      if (request.action === 'queue') {
        await this.locks.assertHoldsLock(cdn.id, user);
      }
      await this.servers.queueCachegroup(manager, cachegroupId, cdn.id, request.action);
      const serverNames = await this.servers.hostNames(manager, cachegroupId, cdn.id);
      return {
        cachegroupName: cachegroup.name,
        action: request.action,
        serverNames,
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
  flagInvalidation(deliveryServiceId: number, useRevalPending: boolean): Promise<void> {
    return this.servers.flagInvalidation(deliveryServiceId, useRevalPending);
  }

  /** The CDN named by `cdnId` and/or `cdn`; both given must name the same one (docs/decisions.md#d8). */
  private async cdnOf(manager: TransactionManager, request: QueueUpdateRequest): Promise<Cdn> {
    let byId: Cdn | null = null;
    if (request.cdnId !== undefined) {
      byId = await this.servers.cdnById(manager, request.cdnId);
      if (!byId) {
        throw new BadRequestException(`cdn id ${request.cdnId} does not exist`);
      }
    }
    if (request.cdn === undefined) {
      return byId!;
    }
    const byName = await this.servers.cdnByName(manager, request.cdn);
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
  queueTopology(topology: string, cdnId: number, action: 'queue' | 'dequeue'): Promise<void> {
    return this.servers.queueTopology(topology, cdnId, action);
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
      if (!(await this.servers.cdnById(manager, cdnId))) {
        throw new NotFoundException('Not Found');
      }
      const only: { typeId?: number; profileId?: number } = {};
      if (filters.type) {
        only.typeId = await this.servers.typeIdByName(manager, filters.type);
        if (only.typeId === undefined) {
          throw new NotFoundException('no type ID found with that name');
        }
      }
      if (filters.profile) {
        only.profileId = await this.servers.profileIdByName(manager, filters.profile);
        if (only.profileId === undefined) {
          throw new NotFoundException('no profile ID found with that name');
        }
      }
      await this.servers.queueCdn(manager, cdnId, action, only);
    });
  }
}
