import { type TransactionManager, UnitOfWork } from 'src/common/database/unit-of-work';
import { Injectable, NotFoundException } from '@nestjs/common';
import { CdnLocksService, type LockUser } from 'src/modules/cdn-locks/cdn-locks.service';
import type { ParsedServerUpdate } from './dto/server-update.query';
import type { Server } from './server.entity';
import { isLater, microTimeFromDb, microTimeOf, type MicroTime } from './micro-time';
import {
  ServerUpdatesRepository,
  type ServerTimes,
  type TimesSet,
  type UpdateStatusServer,
} from './server-updates.repository';

/** The statuses whose servers count as parents with pending updates (the original's list). */
const PARENT_STATUSES = ['ONLINE', 'REPORTED', 'ADMIN_DOWN'];

/** One server's update state as GET servers/{hostname}/update_status reads it. */
export interface UpdateStatusRow {
  id: number;
  hostName: string;
  status: string | null;
  updPending: boolean;
  revalPending: boolean;
  useRevalPending: boolean;
  parentPending: boolean;
  parentRevalPending: boolean;
  configUpdateTime: MicroTime | null;
  configApplyTime: MicroTime | null;
  configUpdateFailed: boolean;
  revalidateUpdateTime: MicroTime | null;
  revalidateApplyTime: MicroTime | null;
  revalidateUpdateFailed: boolean;
}

/** The update is later than the apply time, to the microsecond (docs/decisions.md#d205). */
const later = (a: Date | string | null, b: Date | string | null): boolean =>
  isLater(microTimeFromDb(a), microTimeFromDb(b));

const updPending = (s: ServerTimes): boolean => later(s.config_update_time, s.config_apply_time);
const revalPending = (s: ServerTimes): boolean => later(s.revalidate_update_time, s.revalidate_apply_time);

/** PostgreSQL's reading of a text as a boolean (the original casts `use_reval_pending` so). */
function pgBoolean(text: string): boolean {
  return ['t', 'true', 'y', 'yes', 'on', '1'].includes(text.trim().toLowerCase());
}

/**
 * What a cache's configuration tool asks and tells about its pending updates
 * (docs/original-behaviour.md#server-update-status): the update status of a host name, the update
 * and apply times it reports, and queueing on one server.
 */
@Injectable()
export class ServerUpdatesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly servers: ServerUpdatesRepository,
    private readonly locks: CdnLocksService,
  ) {}

  /**
   * The servers named `hostName` (in id order) with their own pending flags and their parents':
   * the servers of the cache group's primary parent in the same CDN, and the servers of the
   * ancestors of its cache group in every topology holding it (through EDGE and MID cache groups),
   * counting only ONLINE, REPORTED and ADMIN_DOWN servers, of an EDGE or MID type for the former.
   */
  async status(hostName: string): Promise<UpdateStatusRow[]> {
    const servers = await this.servers.updateStatusServers(hostName);
    if (servers.length === 0) {
      return [];
    }
    const param = await this.servers.useRevalPending();
    const useRevalPending = param !== undefined ? pgBoolean(param) : false;
    const rows: UpdateStatusRow[] = [];
    for (const s of servers) {
      const parents = [
        ...(await this.servers.cachegroupParentTimes(s.cachegroup, s.cdn_id, PARENT_STATUSES)),
        ...(await this.topologyAncestorServers(s)),
      ];
      rows.push({
        id: Number(s.id),
        hostName: s.host_name,
        status: s.status,
        updPending: updPending(s),
        revalPending: revalPending(s),
        useRevalPending,
        parentPending: parents.some(updPending),
        parentRevalPending: parents.some(revalPending),
        configUpdateTime: microTimeFromDb(s.config_update_time),
        configApplyTime: microTimeFromDb(s.config_apply_time),
        configUpdateFailed: Boolean(s.config_update_failed),
        revalidateUpdateTime: microTimeFromDb(s.revalidate_update_time),
        revalidateApplyTime: microTimeFromDb(s.revalidate_apply_time),
        revalidateUpdateFailed: Boolean(s.revalidate_update_failed),
      });
    }
    return rows;
  }

  /**
   * The servers, in the server's CDN, of the cache groups above the server's in the topologies that
   * hold it, climbing through parents of EDGE and MID types only (see status).
   */
  private async topologyAncestorServers(s: UpdateStatusServer): Promise<ServerTimes[]> {
    const edges = await this.servers.topologyLinks(s.cachegroup_name);
    const ancestors = new Set<string>();
    const topologies = new Set(edges.map((e) => e.topology));
    for (const topology of topologies) {
      const own = edges.filter((e) => e.topology === topology);
      const queue = [s.cachegroup_name];
      const seen = new Set(queue);
      while (queue.length > 0) {
        const child = queue.shift()!;
        for (const e of own) {
          if (
            e.child === child &&
            (e.type.startsWith('EDGE') || e.type.startsWith('MID')) &&
            !seen.has(e.parent)
          ) {
            seen.add(e.parent);
            ancestors.add(e.parent);
            queue.push(e.parent);
          }
        }
      }
    }
    if (ancestors.size === 0) {
      return [];
    }
    return this.servers.cachegroupsTimes([...ancestors], s.cdn_id, PARENT_STATUSES);
  }

  /**
   * POST servers/{id-or-name}/update: finds the server (its 404 first), then reads the query with
   * `parse` and sets what it says, in the original's order (apply times, failure flags, then the
   * legacy booleans: true queues, false applies now). Answers the success alert's text.
   */
  update(idOrName: string, parse: () => ParsedServerUpdate, user: LockUser): Promise<string> {
    return this.unitOfWork.run(async (manager) => {
      const server = await this.serverOf(manager, idOrName);
      // As the original: another user's lock on the server's CDN refuses t3c's reports too.
      await this.locks.assertHoldsLock(server.cdnId, user);
      const { request, message } = parse();
      const now = microTimeOf(new Date());
      const set: Partial<Server> = {};
      const times: TimesSet = {};
      if (request.configApplyTime !== undefined) {
        times.configApplyTime = request.configApplyTime;
      }
      if (request.configUpdateFailed !== undefined) {
        set.configUpdateFailed = request.configUpdateFailed;
      }
      if (request.revalidateApplyTime !== undefined) {
        times.revalidateApplyTime = request.revalidateApplyTime;
      }
      if (request.revalidateUpdateFailed !== undefined) {
        set.revalidateUpdateFailed = request.revalidateUpdateFailed;
      }
      if (request.updated !== undefined) {
        Object.assign(times, request.updated ? { configUpdateTime: now } : { configApplyTime: now });
      }
      if (request.revalUpdated !== undefined) {
        Object.assign(
          times,
          request.revalUpdated ? { revalidateUpdateTime: now } : { revalidateApplyTime: now },
        );
      }
      await this.servers.change(manager, server.id, set, times);
      return message(server.hostName, idOrName);
    });
  }

  /** POST servers/{id}/queue_update: queueing sets the update time to now, dequeueing to the apply time. */
  async queue(id: number, action: 'queue' | 'dequeue', user: LockUser): Promise<void> {
    await this.unitOfWork.run(async (manager) => {
      const server = await this.serverOf(manager, String(id));
      await this.locks.assertHoldsLock(server.cdnId, user);
      await this.servers.queueServer(manager, id, action);
    });
  }

  /** A server by id (all digits) or host name, locked for the write; 404 in the original's words. */
  private async serverOf(manager: TransactionManager, idOrName: string): Promise<Server> {
    const byId = /^\d+$/.test(idOrName);
    const server = byId
      ? Number(idOrName) <= 2147483647
        ? await this.servers.lockedById(manager, Number(idOrName))
        : null
      : await this.servers.lockedByHostName(manager, idOrName);
    if (!server) {
      throw new NotFoundException(
        byId ? `server ID '${idOrName}' not found` : `server name '${idOrName}' not found`,
      );
    }
    return server;
  }
}
