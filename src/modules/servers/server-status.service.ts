import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { LockUser } from 'src/modules/cdn-locks/cdn-locks.service';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { leftWithoutServersText } from './server-rules';
import { activeDeliveryServicesOnlyServedBy } from './server-keep-checks';
import type { ServerStatusRequest } from './dto/server-status.dto';
import { ServerUpdatesRepository, type StatusTarget } from './server-updates.repository';
import { ServersRepository } from './servers.repository';

/**
 * PUT servers/{id}/status (docs/original-behaviour.md#server-status): sets a server's status and
 * offline reason, refuses to take down the last EDGE (or MSO origin) server of an active delivery
 * service, and queues updates on the caches below an EDGE… or MID… server. Answers the success
 * alert's text, which the change log records too.
 */
@Injectable()
export class ServerStatusService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly updates: ServerUpdatesRepository,
    private readonly servers: ServersRepository,
    private readonly locks: CdnLocksService,
  ) {}

  setStatus(id: number, request: ServerStatusRequest, user: LockUser): Promise<string> {
    return this.unitOfWork.run(async (manager) => {
      const server = await this.serverOf(manager, id);
      try {
        await this.locks.assertHoldsLock(server.cdnId, user);
      } catch (error) {
        if (error instanceof ForbiddenException) {
          throw new ForbiddenException(
            `this action will result in server updates being queued and ${error.message}`,
          );
        }
        throw error;
      }
      if (!request.status) {
        throw new BadRequestException('status is required');
      }
      const status = await this.statusOf(manager, request.status);
      let reason: string | null = null;
      if (status.name === 'ADMIN_DOWN' || status.name === 'OFFLINE') {
        if (request.offlineReason === undefined) {
          throw new BadRequestException('offlineReason is required for ADMIN_DOWN or OFFLINE status');
        }
        reason = `${user.username}: ${request.offlineReason}`;
      }
      const changed = status.id !== server.statusId;
      if (status.name !== 'ONLINE' && status.name !== 'REPORTED' && changed) {
        const left = await activeDeliveryServicesOnlyServedBy(this.servers, manager, server);
        if (left.length > 0) {
          throw new ConflictException(
            leftWithoutServersText(
              `setting server status to '${status.name}' would leave Active Delivery Service`,
              server.type,
              left,
            ),
          );
        }
      }
      await this.updates.change(manager, id, {
        statusId: status.id,
        offlineReason: reason,
        ...(changed ? { statusLastUpdated: new Date() } : {}),
      });
      let text =
        `Updated status [ ${status.name} ] for ${server.hostName}.${server.domainName} ` +
        `[ ${reason ?? ''} ]`;
      if (server.type.startsWith('EDGE') || server.type.startsWith('MID')) {
        await this.queueChildCaches(manager, server);
        text += ' and queued updates on all child caches';
      }
      return text;
    });
  }

  private async serverOf(manager: TransactionManager, id: number): Promise<StatusTarget> {
    const server = await this.updates.statusTarget(manager, id);
    if (!server) {
      throw new NotFoundException(`server ID ${id} not found`);
    }
    return server;
  }

  private async statusOf(
    manager: TransactionManager,
    ref: NonNullable<ServerStatusRequest['status']>,
  ): Promise<{ id: number; name: string }> {
    const status = await this.updates.status(manager, ref);
    if (!status) {
      throw new BadRequestException('invalid status (does not exist)');
    }
    return status;
  }

  /**
   * Queues updates on the servers of the CDN in the cache groups whose parent or secondary parent is
   * the server's, and in the cache groups of the topology nodes below the nodes of the server's.
   */
  private async queueChildCaches(manager: TransactionManager, server: StatusTarget): Promise<void> {
    const ids = await this.updates.childCachegroups(manager, server.cachegroupId);
    if (ids.length === 0) {
      return;
    }
    await this.updates.queueInCachegroups(manager, server.cdnId, ids);
  }
}
