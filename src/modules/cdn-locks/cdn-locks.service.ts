import { UnitOfWork } from 'src/common/database/unit-of-work';
import { insertRows } from 'src/common/database/insert-rows';
import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { lockingClause } from 'src/common/database/locks';
import { translateDbErrors } from 'src/common/database/db-error';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import { type CurrentUser, holdsPermissionNamed } from 'src/common/types/current-user';
import { CdnLockUser } from './cdn-lock-user.entity';
import { CdnLock } from './cdn-lock.entity';
import type { CdnLockRequest } from './dto/cdn-lock.dto';
import type { CdnLockRow } from './dto/cdn-lock.response';

/** Who asks to write: the signed-in user (only the user name matters to the lock rules). */
export type LockUser = Pick<CurrentUser, 'username'>;

/** A CDN by id or by name. */
export type CdnRef = number | string;

/** The permission that lets a user delete another user's lock (`tc.PermCDNLocksDeleteOthers`). */
export const DELETE_OTHERS_LOCKS = 'CDN-LOCK:DELETE-OTHERS';

interface RawLock {
  cdnId: number | string;
  cdn: string;
  userName: string;
  message: string | null;
  soft: number | string | boolean;
  lastUpdated: Date | string;
}

/**
 * CDN locks (docs/original-behaviour.md#cdn-locks) and the rules other modules apply before writing
 * to a CDN:
 *
 * - `assertCanModifyCdn(cdn, user)` / `assertCanModifyCachegroup(id, user)`: ordinary writes to a
 *   CDN (the CDN itself, its servers, its delivery services, …) are refused with 403 `user <holder>
 *   currently has a hard lock on cdn <cdn>` while another user holds a HARD lock on it that is not
 *   shared with the writer (the original's `CheckIfCurrentUserCanModifyCDN*`).
 * - `assertHoldsLock(cdn, user)`: snapshots and queue operations are refused with 403 `user <user>
 *   currently does not have the lock on cdn <cdn>` while another user holds ANY lock (soft or hard)
 *   on the CDN that is not shared with the writer (the original's `CheckIfCurrentUserHasCdnLock`).
 *
 * A CDN that does not exist has no lock: the checks pass and the caller answers its own 404.
 */
@Injectable()
export class CdnLocksService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async list(query: ListQuery): Promise<CdnLockRow[]> {
    const raws = await applyListQuery(this.rows(), query).getRawMany<RawLock>();
    const shared = await this.sharedWith(raws.map((raw) => Number(raw.cdnId)));
    return raws.map((raw) => toRow(raw, shared.get(Number(raw.cdnId)) ?? []));
  }

  /**
   * Takes the lock of a CDN for `user`. The shared users must exist and hold `CDN-LOCK:CREATE` (or
   * `ALL`), and not be the user; an unknown CDN is 404 `cdn not found`; a CDN already locked is 400
   * `cdn_lock cdn '<cdn>' already exists.`.
   */
  async create(request: CdnLockRequest, user: CurrentUser): Promise<CdnLockRow> {
    const names = request.sharedUserNames ?? [];
    let sharedIds: number[] = [];
    if (names.length > 0) {
      sharedIds = await this.lockCapableUsers(names);
      if (sharedIds.length !== new Set(names).size || new Set(names).size !== names.length) {
        throw new BadRequestException(
          'shared users must exist and have the correct permissions to create a lock',
        );
      }
      if (names.includes(user.username)) {
        throw new BadRequestException('shared username cannot be the same as the one creating the lock');
      }
    }
    const cdn = await this.dataSource.query<{ id: number | string }[]>('SELECT id FROM cdn WHERE name = ?', [
      request.cdn,
    ]);
    if (cdn.length === 0) {
      throw new NotFoundException('cdn not found');
    }
    const cdnId = Number(cdn[0].id);
    await this.unitOfWork.run(async (manager) => {
      await translateDbErrors(
        () =>
          insertRows(manager, CdnLock, {
            cdnId,
            userId: user.id,
            message: request.message,
            soft: request.soft,
          }),
        (failure) =>
          failure.kind === 'unique'
            ? new BadRequestException(`cdn_lock cdn '${request.cdn}' already exists.`)
            : undefined,
      );
      if (sharedIds.length > 0) {
        await insertRows(
          manager,
          CdnLockUser,
          sharedIds.map((userId) => ({ cdnId, userId })),
        );
      }
    });
    const [raw] = await this.rows().where('l.cdn_id = :cdnId', { cdnId }).getRawMany<RawLock>();
    return toRow(raw, request.sharedUserNames ?? null);
  }

  /**
   * Releases the lock of the CDN named `cdn`: the user's own, or anyone's for a user holding
   * `CDN-LOCK:DELETE-OTHERS`. Nothing to release: 403 `… operation forbidden` for the first, 404
   * `… lock not found` for the second. Answers the released lock (`sharedUserNames` null when it had
   * none, as the original's).
   */
  async remove(cdn: string, user: CurrentUser): Promise<CdnLockRow> {
    const forced = holdsPermissionNamed(user, DELETE_OTHERS_LOCKS);
    return this.unitOfWork.run(async (manager) => {
      const qb = this.rows().where('c.name = :cdn', { cdn });
      if (!forced) {
        qb.andWhere('u.username = :username', { username: user.username });
      }
      const [raw] = await qb.getRawMany<RawLock>();
      if (!raw) {
        if (!forced) {
          throw new ForbiddenException(`deleting cdn lock with cdn name ${cdn}: operation forbidden`);
        }
        throw new NotFoundException(`deleting cdn lock with cdn name ${cdn}: lock not found`);
      }
      const cdnId = Number(raw.cdnId);
      const shared = (await this.sharedWith([cdnId])).get(cdnId);
      await manager.delete(CdnLockUser, { cdnId });
      await manager.delete(CdnLock, { cdnId });
      return toRow(raw, shared && shared.length > 0 ? shared : null);
    });
  }

  /**
   * 403 while another user holds a hard lock on the CDN (by id or name) not shared with `user`.
   * Given the write's transaction (`manager`), the lock rows are read with a locking read there, so
   * no lock can be taken between the check and the write's commit.
   */
  async assertCanModifyCdn(cdn: CdnRef, user: LockUser, manager?: EntityManager): Promise<void> {
    const [blocking] = await this.blockingLocks(
      typeof cdn === 'number' ? 'c.id = ?' : 'c.name = ?',
      [cdn],
      user,
      true,
      manager,
    );
    if (blocking) {
      throw new ForbiddenException(
        `user ${blocking.holder} currently has a hard lock on cdn ${blocking.cdn}`,
      );
    }
  }

  /** The same for the CDN of a profile (by id); a profile without a CDN or unknown passes. */
  async assertCanModifyProfileCdn(profileId: number, user: LockUser, manager?: EntityManager): Promise<void> {
    const [blocking] = await this.blockingLocks(
      'c.id IN (SELECT p.cdn FROM profile p WHERE p.id = ?)',
      [profileId],
      user,
      true,
      manager,
    );
    if (blocking) {
      throw new ForbiddenException(
        `user ${blocking.holder} currently has a hard lock on cdn ${blocking.cdn}`,
      );
    }
  }

  /** The same for every CDN of the servers of a cache group (the original's cache-group check). */
  async assertCanModifyCachegroup(cachegroupId: number, user: LockUser): Promise<void> {
    const [blocking] = await this.blockingLocks(
      'c.id IN (SELECT s.cdn_id FROM server s WHERE s.cachegroup = ?)',
      [cachegroupId],
      user,
      true,
    );
    if (blocking) {
      throw new ForbiddenException(
        `user ${blocking.holder} currently has a hard lock on cdn ${blocking.cdn}`,
      );
    }
  }

  /** 403 while another user holds any lock on the CDN (by id or name) not shared with `user`. */
  async assertHoldsLock(cdn: CdnRef, user: LockUser): Promise<void> {
    const [blocking] = await this.blockingLocks(
      typeof cdn === 'number' ? 'c.id = ?' : 'c.name = ?',
      [cdn],
      user,
      false,
    );
    if (blocking) {
      throw new ForbiddenException(
        `user ${user.username} currently does not have the lock on cdn ${blocking.cdn}`,
      );
    }
  }

  private blockingLocks(
    cdnCondition: string,
    parameters: unknown[],
    user: LockUser,
    hardOnly: boolean,
    manager?: EntityManager,
  ): Promise<{ cdn: string; holder: string }[]> {
    const lock = manager ? lockingClause(this.dataSource, 'share') : '';
    return (manager ?? this.dataSource).query(
      `SELECT c.name AS cdn, u.username AS holder
         FROM cdn_lock l
         JOIN cdn c ON c.id = l.cdn_id
         JOIN tm_user u ON u.id = l.tm_user_id
        WHERE ${cdnCondition}${hardOnly ? ' AND l.soft = 0' : ''}
          AND u.username <> ?
          AND NOT EXISTS (SELECT 1 FROM cdn_lock_user lu JOIN tm_user su ON su.id = lu.tm_user_id
                           WHERE lu.cdn_id = l.cdn_id AND su.username = ?)
        ORDER BY c.name${lock}`,
      [...parameters, user.username, user.username],
    );
  }

  /** The ids of the named users whose role may take a lock (`CDN-LOCK:CREATE` or `ALL`). */
  private async lockCapableUsers(names: string[]): Promise<number[]> {
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
  private async sharedWith(cdnIds: number[]): Promise<Map<number, string[]>> {
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

function toRow(raw: RawLock, sharedUserNames: string[] | null): CdnLockRow {
  return {
    userName: raw.userName,
    cdn: raw.cdn,
    message: raw.message,
    soft: raw.soft === true || Number(raw.soft) === 1,
    sharedUserNames,
    lastUpdated: toDate(raw.lastUpdated),
  };
}
