import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { insertRows } from 'src/common/database/insert-rows';
import { lockingClause } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { CdnLockUser } from './cdn-lock-user.entity';
import { CdnLock } from './cdn-lock.entity';

export interface RawLock {
  cdnId: number | string;
  cdn: string;
  userName: string;
  message: string | null;
  soft: number | string | boolean;
  lastUpdated: Date | string;
}

/** Which CDNs a lock check is about: one (by id or name), a profile's, or those of a cache group's servers. */
export type LockedCdns =
  { cdnId: number } | { cdnName: string } | { profileId: number } | { cachegroupId: number };

/** The SQL condition on `c` (the cdn) for each kind of `LockedCdns`, and its parameter. */
function cdnCondition(of: LockedCdns): [string, unknown] {
  if ('cdnId' in of) {
    return ['c.id = ?', of.cdnId];
  }
  if ('cdnName' in of) {
    return ['c.name = ?', of.cdnName];
  }
  if ('profileId' in of) {
    return ['c.id IN (SELECT p.cdn FROM profile p WHERE p.id = ?)', of.profileId];
  }
  return ['c.id IN (SELECT s.cdn_id FROM server s WHERE s.cachegroup = ?)', of.cachegroupId];
}

/**
 * The cdn_lock and cdn_lock_user tables, and what the lock rules read of CDNs and users: the only
 * file of the module that runs SQL (docs/architecture.md#data-access). Methods taking a `manager` run
 * in the caller's transaction.
 */
@Injectable()
export class CdnLocksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  list(query: ListQuery): Promise<RawLock[]> {
    return applyListQuery(this.rows(), query).getRawMany<RawLock>();
  }

  /** The lock of a CDN (by id), or undefined. */
  async lockOf(cdnId: number): Promise<RawLock | undefined> {
    const [raw] = await this.rows().where('l.cdn_id = :cdnId', { cdnId }).getRawMany<RawLock>();
    return raw;
  }

  /** The lock of the CDN with this name (held by `username` when given), or undefined. */
  async lockByCdnName(cdn: string, username?: string): Promise<RawLock | undefined> {
    const qb = this.rows().where('c.name = :cdn', { cdn });
    if (username !== undefined) {
      qb.andWhere('u.username = :username', { username });
    }
    const [raw] = await qb.getRawMany<RawLock>();
    return raw;
  }

  /** The id of the CDN with this name, or undefined. */
  async cdnId(name: string): Promise<number | undefined> {
    const [cdn] = await this.dataSource.query<{ id: number | string }[]>(
      'SELECT id FROM cdn WHERE name = ?',
      [name],
    );
    return cdn ? Number(cdn.id) : undefined;
  }

  async add(
    manager: EntityManager,
    columns: Pick<CdnLock, 'cdnId' | 'userId' | 'message' | 'soft'>,
  ): Promise<void> {
    await insertRows(manager, CdnLock, columns);
  }

  async share(manager: EntityManager, cdnId: number, userIds: number[]): Promise<void> {
    await insertRows(
      manager,
      CdnLockUser,
      userIds.map((userId) => ({ cdnId, userId })),
    );
  }

  /** Deletes a CDN's lock and its shares. */
  async remove(manager: EntityManager, cdnId: number): Promise<void> {
    await manager.delete(CdnLockUser, { cdnId });
    await manager.delete(CdnLock, { cdnId });
  }

  /**
   * The locks on those CDNs held by another user than `username` and not shared with it (hard ones
   * only when `hardOnly`), by CDN name. Given the write's transaction (`manager`), a locking read
   * there, so no lock can be taken between the check and the write's commit.
   */
  blockingLocks(
    of: LockedCdns,
    username: string,
    hardOnly: boolean,
    manager?: EntityManager,
  ): Promise<{ cdn: string; holder: string }[]> {
    const [condition, parameter] = cdnCondition(of);
    const lock = manager ? lockingClause(this.dataSource, 'share') : '';
    return (manager ?? this.dataSource).query(
      `SELECT c.name AS cdn, u.username AS holder
         FROM cdn_lock l
         JOIN cdn c ON c.id = l.cdn_id
         JOIN tm_user u ON u.id = l.tm_user_id
        WHERE ${condition}${hardOnly ? ' AND l.soft = 0' : ''}
          AND u.username <> ?
          AND NOT EXISTS (SELECT 1 FROM cdn_lock_user lu JOIN tm_user su ON su.id = lu.tm_user_id
                           WHERE lu.cdn_id = l.cdn_id AND su.username = ?)
        ORDER BY c.name${lock}`,
      [parameter, username, username],
    );
  }

  /** The ids of the named users whose role may take a lock (`CDN-LOCK:CREATE` or `ALL`). */
  async lockCapableUsers(names: string[]): Promise<number[]> {
    const rows = await this.dataSource
      .createQueryBuilder()
      .select('DISTINCT u.id', 'id')
      .from('tm_user', 'u')
      .innerJoin('role_capability', 'rc', 'rc.role_id = u.role')
      .where('u.username IN (:...names)', { names })
      .andWhere("rc.cap_name IN ('ALL', 'CDN-LOCK:CREATE')")
      .getRawMany<{ id: number | string }>();
    return rows.map((row) => Number(row.id));
  }

  /** The user names each lock (by CDN id) is shared with, in name order. */
  async sharedWith(cdnIds: number[]): Promise<Map<number, string[]>> {
    const shared = new Map<number, string[]>();
    if (cdnIds.length === 0) {
      return shared;
    }
    const rows = await this.dataSource
      .createQueryBuilder()
      .select('lu.cdn_id', 'cdnId')
      .addSelect('u.username', 'username')
      .from(CdnLockUser, 'lu')
      .innerJoin('tm_user', 'u', 'u.id = lu.tm_user_id')
      .where('lu.cdn_id IN (:...cdnIds)', { cdnIds })
      .orderBy('u.username')
      .getRawMany<{ cdnId: number | string; username: string }>();
    for (const row of rows) {
      const id = Number(row.cdnId);
      shared.set(id, [...(shared.get(id) ?? []), row.username]);
    }
    return shared;
  }

  private rows() {
    return this.dataSource
      .createQueryBuilder()
      .from(CdnLock, 'l')
      .innerJoin('cdn', 'c', 'c.id = l.cdn_id')
      .innerJoin('tm_user', 'u', 'u.id = l.tm_user_id')
      .select('l.cdn_id', 'cdnId')
      .addSelect('c.name', 'cdn')
      .addSelect('u.username', 'userName')
      .addSelect('l.message', 'message')
      .addSelect('l.soft', 'soft')
      .addSelect('l.last_updated', 'lastUpdated');
  }
}
