import { UnitOfWork } from 'src/common/database/unit-of-work';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { lockingClause } from 'src/common/database/locks';
import type { LockUser } from 'src/modules/cdn-locks/cdn-locks.service';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { leftWithoutServersText } from './server-rules';
import { activeDeliveryServicesOnlyServedBy } from './server-keep-rules';
import type { ServerStatusRequest } from './dto/server-status.dto';
import { Server } from './server.entity';

interface StatusTarget {
  id: number;
  hostName: string;
  domainName: string;
  cdnId: number;
  cachegroupId: number;
  type: string;
  statusId: number;
}

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
    @InjectDataSource() private readonly dataSource: DataSource,
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
        const left = await activeDeliveryServicesOnlyServedBy(manager, server);
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
      await manager.update(
        Server,
        { id },
        { statusId: status.id, offlineReason: reason, ...(changed ? { statusLastUpdated: new Date() } : {}) },
      );
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

  private async serverOf(manager: EntityManager, id: number): Promise<StatusTarget> {
    const [row] = await manager.query<Record<string, unknown>[]>(
      'SELECT s.id AS id, s.host_name AS host_name, s.domain_name AS domain_name, s.cdn_id AS cdn_id, ' +
        's.cachegroup AS cachegroup, s.status AS status, t.name AS type ' +
        `FROM server s JOIN type t ON t.id = s.type WHERE s.id = ?${lockingClause(this.dataSource, 'write')}`,
      [id],
    );
    if (!row) {
      throw new NotFoundException(`server ID ${id} not found`);
    }
    return {
      id: Number(row.id),
      hostName: String(row.host_name),
      domainName: String(row.domain_name),
      cdnId: Number(row.cdn_id),
      cachegroupId: Number(row.cachegroup),
      type: String(row.type),
      statusId: Number(row.status),
    };
  }

  private async statusOf(
    manager: EntityManager,
    ref: NonNullable<ServerStatusRequest['status']>,
  ): Promise<{ id: number; name: string }> {
    const [row] = await manager.query<{ id: number | string; name: string }[]>(
      'id' in ref
        ? 'SELECT id, name FROM status WHERE id = ?'
        : 'SELECT id, name FROM status WHERE name = ? ORDER BY id',
      ['id' in ref ? ref.id : ref.name],
    );
    if (!row) {
      throw new BadRequestException('invalid status (does not exist)');
    }
    return { id: Number(row.id), name: String(row.name) };
  }

  /**
   * The active delivery services whose only assigned server of this server's kind (EDGE… or ORG…)
   * is this one; for an EDGE server those without a topology, for an ORG server those with
   * multi-site origin. Other servers have no such services.
   */
  /**
   * Queues updates on the servers of the CDN in the cache groups whose parent or secondary parent is
   * the server's, and in the cache groups of the topology nodes below the nodes of the server's.
   */
  private async queueChildCaches(manager: EntityManager, server: StatusTarget): Promise<void> {
    const descendants = await manager.query<{ id: number | string }[]>(
      'WITH RECURSIVE below(node, cachegroup) AS (' +
        'SELECT tcp.parent, CAST(NULL AS CHAR(255)) FROM cachegroup c JOIN topology_cachegroup tc ON tc.cachegroup = c.name ' +
        'JOIN topology_cachegroup_parents tcp ON tcp.parent = tc.id WHERE c.id = ? ' +
        'UNION ALL SELECT tcp.child, tc.cachegroup FROM below b ' +
        'JOIN topology_cachegroup_parents tcp ON tcp.parent = b.node JOIN topology_cachegroup tc ON tc.id = tcp.child' +
        ') SELECT DISTINCT c.id AS id FROM cachegroup c JOIN below b ON b.cachegroup = c.name',
      [server.cachegroupId],
    );
    const children = await manager.query<{ id: number | string }[]>(
      'SELECT id FROM cachegroup WHERE parent_cachegroup_id = ? OR secondary_parent_cachegroup_id = ?',
      [server.cachegroupId, server.cachegroupId],
    );
    const ids = [...new Set([...descendants, ...children].map((r) => Number(r.id)))];
    if (ids.length === 0) {
      return;
    }
    await manager
      .createQueryBuilder()
      .update(Server)
      .set({ configUpdateTime: new Date() })
      .where('cdn_id = :cdnId AND cachegroup IN (:...ids)', { cdnId: server.cdnId, ids })
      .execute();
  }
}
