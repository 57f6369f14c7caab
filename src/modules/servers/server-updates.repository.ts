import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { lockingClause, writeLock } from 'src/common/database/locks';
import { Cachegroup } from 'src/modules/cachegroups/cachegroup.entity';
import { Cdn } from 'src/modules/cdns/cdn.entity';
import { microTimeOf, type MicroTime, type UpdateTimes } from './micro-time';
import { Server } from './server.entity';
import { timeText } from './servers.repository';

/** A server's update and apply times as read: text with six fractional digits on MySQL, the column's text on SQLite. */
export interface ServerTimes {
  config_update_time: Date | string | null;
  config_apply_time: Date | string | null;
  revalidate_update_time: Date | string | null;
  revalidate_apply_time: Date | string | null;
}

/** A server as GET servers/{hostname}/update_status reads it. */
export interface UpdateStatusServer extends ServerTimes {
  id: number;
  host_name: string;
  cdn_id: number;
  cachegroup: number;
  cachegroup_name: string;
  status: string | null;
  config_update_failed: number | boolean;
  revalidate_update_failed: number | boolean;
}

/** A server as PUT servers/{id}/status reads it. */
export interface StatusTarget {
  id: number;
  hostName: string;
  domainName: string;
  cdnId: number;
  cachegroupId: number;
  type: string;
  statusId: number;
}

/** The update and apply times a statement sets: each bound as its text, microseconds kept (D205). */
export type TimesSet = Partial<Record<keyof UpdateTimes, MicroTime>>;

/** `set`'s times as query-builder values (the parameter `:<name>`) and their parameters. */
function timesSet(set: TimesSet): {
  values: Record<string, () => string>;
  parameters: Record<string, string>;
} {
  const values: Record<string, () => string> = {};
  const parameters: Record<string, string> = {};
  for (const [name, time] of Object.entries(set)) {
    values[name] = () => `:${name}`;
    parameters[name] = time;
  }
  return { values, parameters };
}

/** Queueing sets the update time to now; dequeueing back to the apply time (to its microsecond). */
function pendingChange(action: 'queue' | 'dequeue') {
  return action === 'queue'
    ? { configUpdateTime: () => ':now' }
    : { configUpdateTime: () => 'config_apply_time' };
}

/** The parameter of `pendingChange`'s now. */
const nowParameter = () => ({ now: microTimeOf(new Date()) });

/**
 * The servers' update state (pending updates, their times, queueing) and status, and what those
 * routes read of other tables: with servers.repository.ts, the only files of the module that run
 * SQL (docs/architecture.md#data-access). Methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class ServerUpdatesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The servers named `hostName`, in id order, with their times, cache group and status. */
  updateStatusServers(hostName: string): Promise<UpdateStatusServer[]> {
    return this.dataSource.manager.query<UpdateStatusServer[]>(
      'SELECT s.id AS id, s.host_name AS host_name, s.cdn_id AS cdn_id, s.cachegroup AS cachegroup, ' +
        `cg.name AS cachegroup_name, st.name AS status, ${this.times('s')}, ` +
        's.config_update_failed AS config_update_failed, ' +
        's.revalidate_update_failed AS revalidate_update_failed FROM server s ' +
        'LEFT JOIN status st ON st.id = s.status JOIN cachegroup cg ON cg.id = s.cachegroup ' +
        'WHERE s.host_name = ? ORDER BY s.id',
      [hostName],
    );
  }

  /** The global `use_reval_pending` parameter's value (the first by id), or undefined. */
  async useRevalPending(): Promise<string | undefined> {
    const [param] = await this.dataSource.manager.query<{ value: string }[]>(
      "SELECT value FROM parameter WHERE name = 'use_reval_pending' AND config_file = 'global' ORDER BY id",
    );
    return param?.value;
  }

  /**
   * The times of the servers in the CDN, of the cache group's primary parent, with one of the
   * statuses and of an EDGE or MID type.
   */
  cachegroupParentTimes(cachegroupId: number, cdnId: number, statuses: string[]): Promise<ServerTimes[]> {
    return this.dataSource.manager.query<ServerTimes[]>(
      `SELECT ${this.times('ps')} ` +
        'FROM cachegroup cg JOIN server ps ON ps.cachegroup = cg.parent_cachegroup_id ' +
        'JOIN status st ON st.id = ps.status JOIN type t ON t.id = ps.type ' +
        `WHERE cg.id = ? AND ps.cdn_id = ? AND st.name IN (${statuses.map(() => '?').join(', ')}) ` +
        "AND (t.name LIKE 'EDGE%' OR t.name LIKE 'MID%')",
      [cachegroupId, cdnId, ...statuses],
    );
  }

  /** The child-to-parent links (by cache group name, with the parent's type) of the topologies holding the cache group. */
  topologyLinks(
    cachegroup: string,
  ): Promise<{ topology: string; child: string; parent: string; type: string }[]> {
    return this.dataSource.manager.query(
      'SELECT c.topology AS topology, c.cachegroup AS child, p.cachegroup AS parent, t.name AS type ' +
        'FROM topology_cachegroup_parents tcp JOIN topology_cachegroup c ON c.id = tcp.child ' +
        'JOIN topology_cachegroup p ON p.id = tcp.parent JOIN cachegroup pcg ON pcg.name = p.cachegroup ' +
        'JOIN type t ON t.id = pcg.type ' +
        'WHERE c.topology IN (SELECT topology FROM topology_cachegroup WHERE cachegroup = ?)',
      [cachegroup],
    );
  }

  /** The times of the servers in the CDN, in the cache groups (by name), with one of the statuses. */
  cachegroupsTimes(cachegroups: string[], cdnId: number, statuses: string[]): Promise<ServerTimes[]> {
    return this.dataSource.manager.query<ServerTimes[]>(
      `SELECT ${this.times('ps')} ` +
        'FROM server ps JOIN cachegroup cg ON cg.id = ps.cachegroup JOIN status st ON st.id = ps.status ' +
        `WHERE cg.name IN (${cachegroups.map(() => '?').join(', ')}) AND ps.cdn_id = ? ` +
        `AND st.name IN (${statuses.map(() => '?').join(', ')})`,
      [...cachegroups, cdnId, ...statuses],
    );
  }

  /** The four times of servers aliased `alias`, as text with six fractional digits on MySQL. */
  private times(alias: string): string {
    return ['config_update_time', 'config_apply_time', 'revalidate_update_time', 'revalidate_apply_time']
      .map((column) => `${timeText(this.dataSource, `${alias}.${column}`)} AS ${column}`)
      .join(', ');
  }

  /** The server by id, write-locked. */
  lockedById(manager: EntityManager, id: number): Promise<Server | null> {
    return manager.findOne(Server, { where: { id }, lock: writeLock(this.dataSource) });
  }

  /** The first server (by id) named `hostName`, write-locked. */
  lockedByHostName(manager: EntityManager, hostName: string): Promise<Server | null> {
    return manager.findOne(Server, {
      where: { hostName },
      order: { id: 'ASC' },
      lock: writeLock(this.dataSource),
    });
  }

  /** Changes the server's columns and its update and apply times (bound as text, D205). */
  async change(
    manager: EntityManager,
    id: number,
    columns: Partial<Server>,
    times: TimesSet = {},
  ): Promise<void> {
    const { values, parameters } = timesSet(times);
    await manager
      .createQueryBuilder()
      .update(Server)
      .set({ ...columns, ...values })
      .where({ id })
      .setParameters(parameters)
      .execute();
  }

  /** Queues (update time now) or clears (update time back to the apply time) the server's updates. */
  async queueServer(manager: EntityManager, id: number, action: 'queue' | 'dequeue'): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(Server)
      .set(pendingChange(action))
      .where('id = :id', { id })
      .setParameters(nowParameter())
      .execute();
  }

  /** The server with its type's name, write-locked, or undefined. */
  async statusTarget(manager: EntityManager, id: number): Promise<StatusTarget | undefined> {
    const [row] = await manager.query<Record<string, unknown>[]>(
      'SELECT s.id AS id, s.host_name AS host_name, s.domain_name AS domain_name, s.cdn_id AS cdn_id, ' +
        's.cachegroup AS cachegroup, s.status AS status, t.name AS type ' +
        `FROM server s JOIN type t ON t.id = s.type WHERE s.id = ?${lockingClause(this.dataSource, 'write')}`,
      [id],
    );
    return row
      ? {
          id: Number(row.id),
          hostName: String(row.host_name),
          domainName: String(row.domain_name),
          cdnId: Number(row.cdn_id),
          cachegroupId: Number(row.cachegroup),
          type: String(row.type),
          statusId: Number(row.status),
        }
      : undefined;
  }

  /** A status by id or (the first by id) by name, or undefined. */
  async status(
    manager: EntityManager,
    ref: { id: number } | { name: string },
  ): Promise<{ id: number; name: string } | undefined> {
    const [row] = await manager.query<{ id: number | string; name: string }[]>(
      'id' in ref
        ? 'SELECT id, name FROM status WHERE id = ?'
        : 'SELECT id, name FROM status WHERE name = ? ORDER BY id',
      ['id' in ref ? ref.id : ref.name],
    );
    return row ? { id: Number(row.id), name: String(row.name) } : undefined;
  }

  /**
   * The cache groups whose parent or secondary parent is the cache group, and those of the topology
   * nodes below its nodes, by id.
   */
  async childCachegroups(manager: EntityManager, cachegroupId: number): Promise<number[]> {
    const descendants = await manager.query<{ id: number | string }[]>(
      'WITH RECURSIVE below(node, cachegroup) AS (' +
        'SELECT tcp.parent, CAST(NULL AS CHAR(255)) FROM cachegroup c JOIN topology_cachegroup tc ON tc.cachegroup = c.name ' +
        'JOIN topology_cachegroup_parents tcp ON tcp.parent = tc.id WHERE c.id = ? ' +
        'UNION ALL SELECT tcp.child, tc.cachegroup FROM below b ' +
        'JOIN topology_cachegroup_parents tcp ON tcp.parent = b.node JOIN topology_cachegroup tc ON tc.id = tcp.child' +
        ') SELECT DISTINCT c.id AS id FROM cachegroup c JOIN below b ON b.cachegroup = c.name',
      [cachegroupId],
    );
    const children = await manager.query<{ id: number | string }[]>(
      'SELECT id FROM cachegroup WHERE parent_cachegroup_id = ? OR secondary_parent_cachegroup_id = ?',
      [cachegroupId, cachegroupId],
    );
    return [...new Set([...descendants, ...children].map((r) => Number(r.id)))];
  }

  /** Queues updates on the servers of the CDN in the cache groups (by id). */
  async queueInCachegroups(manager: EntityManager, cdnId: number, cachegroupIds: number[]): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(Server)
      .set(pendingChange('queue'))
      .where('cdn_id = :cdnId AND cachegroup IN (:...ids)', { cdnId, ids: cachegroupIds })
      .setParameters(nowParameter())
      .execute();
  }

  cachegroupById(manager: EntityManager, id: number): Promise<Cachegroup | null> {
    return manager.findOne(Cachegroup, { select: { id: true, name: true }, where: { id } });
  }

  cdnById(manager: EntityManager, id: number): Promise<Cdn | null> {
    return manager.findOne(Cdn, { where: { id } });
  }

  cdnByName(manager: EntityManager, name: string): Promise<Cdn | null> {
    return manager.findOne(Cdn, { where: { name } });
  }

  /** Queues or clears updates on the servers of the cache group in the CDN (one UPDATE). */
  async queueCachegroup(
    manager: EntityManager,
    cachegroupId: number,
    cdnId: number,
    action: 'queue' | 'dequeue',
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(Server)
      .set(pendingChange(action))
      .where('cachegroup = :cachegroupId AND cdn_id = :cdnId', { cachegroupId, cdnId })
      .setParameters(nowParameter())
      .execute();
  }

  /** The host names of the servers of the cache group in the CDN, by host name and id. */
  async hostNames(manager: EntityManager, cachegroupId: number, cdnId: number): Promise<string[]> {
    const servers = await manager.find(Server, {
      select: { id: true, hostName: true },
      where: { cachegroupId, cdnId },
      order: { hostName: 'ASC', id: 'ASC' },
    });
    return servers.map((s) => s.hostName);
  }

  /** See ServersQueueService.flagInvalidation. */
  async flagInvalidation(deliveryServiceId: number, useRevalPending: boolean): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(Server)
      .set(useRevalPending ? { revalidateUpdateTime: () => ':now' } : { configUpdateTime: () => ':now' })
      .where("status IN (SELECT st.id FROM status st WHERE st.name IN ('ONLINE', 'REPORTED', 'ADMIN_DOWN'))")
      .andWhere(
        'id IN (SELECT sp.server FROM server_profile sp ' +
          'JOIN profile_parameter pp ON pp.profile = sp.profile ' +
          "JOIN parameter p ON p.id = pp.parameter WHERE p.name = 'location' AND p.config_file = 'regex_revalidate.config')",
      )
      .andWhere('cdn_id = (SELECT ds.cdn_id FROM deliveryservice ds WHERE ds.id = :deliveryServiceId)', {
        deliveryServiceId,
      })
      .setParameters(nowParameter())
      .execute();
  }

  /** Queues or clears updates on the servers of the CDN in the cache groups of the topology's nodes. */
  async queueTopology(topology: string, cdnId: number, action: 'queue' | 'dequeue'): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(Server)
      .set(pendingChange(action))
      .where('cdn_id = :cdnId', { cdnId })
      .andWhere(
        'cachegroup IN (SELECT cg.id FROM cachegroup cg JOIN topology_cachegroup tc ON tc.cachegroup = cg.name ' +
          'WHERE tc.topology = :topology)',
        { topology },
      )
      .setParameters(nowParameter())
      .execute();
  }

  async typeIdByName(manager: EntityManager, name: string): Promise<number | undefined> {
    const [type] = await manager.query<{ id: number }[]>('SELECT id FROM type WHERE name = ?', [name]);
    return type ? Number(type.id) : undefined;
  }

  async profileIdByName(manager: EntityManager, name: string): Promise<number | undefined> {
    const [profile] = await manager.query<{ id: number }[]>('SELECT id FROM profile WHERE name = ?', [name]);
    return profile ? Number(profile.id) : undefined;
  }

  /** Queues or clears updates on the servers of the CDN, optionally only of a type and/or a profile. */
  async queueCdn(
    manager: EntityManager,
    cdnId: number,
    action: 'queue' | 'dequeue',
    only: { typeId?: number; profileId?: number },
  ): Promise<void> {
    const qb = manager
      .createQueryBuilder()
      .update(Server)
      .set(pendingChange(action))
      .where('cdn_id = :cdnId', { cdnId })
      .setParameters(nowParameter());
    if (only.typeId !== undefined) {
      qb.andWhere('type = :typeId', { typeId: only.typeId });
    }
    if (only.profileId !== undefined) {
      qb.andWhere('id IN (SELECT sp.server FROM server_profile sp WHERE sp.profile = :profileId)', {
        profileId: only.profileId,
      });
    }
    await qb.execute();
  }
}
