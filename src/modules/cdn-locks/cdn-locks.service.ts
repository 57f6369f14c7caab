import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { translateDbErrors } from 'src/common/database/db-error';
import { UnitOfWork, type TransactionManager } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import { type CurrentUser, holdsPermissionNamed } from 'src/common/types/current-user';
import { CdnLocksRepository, type LockedCdns, type RawLock } from './cdn-locks.repository';
import type { CdnLockRequest } from './dto/cdn-lock.dto';
import type { CdnLockRow } from './dto/cdn-lock.response';

/** Who asks to write: the signed-in user (only the user name matters to the lock rules). */
export type LockUser = Pick<CurrentUser, 'username'>;

/** A CDN by id or by name. */
export type CdnRef = number | string;

/** The permission that lets a user delete another user's lock (`tc.PermCDNLocksDeleteOthers`). */
export const DELETE_OTHERS_LOCKS = 'CDN-LOCK:DELETE-OTHERS';

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
    private readonly locks: CdnLocksRepository,
  ) {}

  async list(query: ListQuery): Promise<CdnLockRow[]> {
    const raws = await this.locks.list(query);
    const shared = await this.locks.sharedWith(raws.map((raw) => Number(raw.cdnId)));
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
      sharedIds = await this.locks.lockCapableUsers(names);
      if (sharedIds.length !== new Set(names).size || new Set(names).size !== names.length) {
        throw new BadRequestException(
          'shared users must exist and have the correct permissions to create a lock',
        );
      }
      if (names.includes(user.username)) {
        throw new BadRequestException('shared username cannot be the same as the one creating the lock');
      }
    }
    const cdnId = await this.locks.cdnId(request.cdn);
    if (cdnId === undefined) {
      throw new NotFoundException('cdn not found');
    }
    await this.unitOfWork.run(async (manager) => {
      await translateDbErrors(
        () =>
          this.locks.add(manager, { cdnId, userId: user.id, message: request.message, soft: request.soft }),
        (failure) =>
          failure.kind === 'unique'
            ? new BadRequestException(`cdn_lock cdn '${request.cdn}' already exists.`)
            : undefined,
      );
      if (sharedIds.length > 0) {
        await this.locks.share(manager, cdnId, sharedIds);
      }
    });
    const raw = await this.locks.lockOf(cdnId);
    return toRow(raw!, request.sharedUserNames ?? null);
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
      const raw = await this.locks.lockByCdnName(cdn, forced ? undefined : user.username);
      if (!raw) {
        if (!forced) {
          throw new ForbiddenException(`deleting cdn lock with cdn name ${cdn}: operation forbidden`);
        }
        throw new NotFoundException(`deleting cdn lock with cdn name ${cdn}: lock not found`);
      }
      const cdnId = Number(raw.cdnId);
      const shared = (await this.locks.sharedWith([cdnId])).get(cdnId);
      await this.locks.remove(manager, cdnId);
      return toRow(raw, shared && shared.length > 0 ? shared : null);
    });
  }

  /**
   * 403 while another user holds a hard lock on the CDN (by id or name) not shared with `user`.
   * Given the write's transaction (`manager`), the lock rows are read with a locking read there, so
   * no lock can be taken between the check and the write's commit.
   */
  async assertCanModifyCdn(cdn: CdnRef, user: LockUser, manager?: TransactionManager): Promise<void> {
    const [blocking] = await this.locks.blockingLocks(cdnOf(cdn), user.username, true, manager);
    if (blocking) {
      throw new ForbiddenException(
        `user ${blocking.holder} currently has a hard lock on cdn ${blocking.cdn}`,
      );
    }
  }

  /** The same for the CDN of a profile (by id); a profile without a CDN or unknown passes. */
  async assertCanModifyProfileCdn(
    profileId: number,
    user: LockUser,
    manager?: TransactionManager,
  ): Promise<void> {
    const [blocking] = await this.locks.blockingLocks({ profileId }, user.username, true, manager);
    if (blocking) {
      throw new ForbiddenException(
        `user ${blocking.holder} currently has a hard lock on cdn ${blocking.cdn}`,
      );
    }
  }

  /** The same for every CDN of the servers of a cache group (the original's cache-group check). */
  async assertCanModifyCachegroup(cachegroupId: number, user: LockUser): Promise<void> {
    const [blocking] = await this.locks.blockingLocks({ cachegroupId }, user.username, true);
    if (blocking) {
      throw new ForbiddenException(
        `user ${blocking.holder} currently has a hard lock on cdn ${blocking.cdn}`,
      );
    }
  }

  /** 403 while another user holds any lock on the CDN (by id or name) not shared with `user`. */
  async assertHoldsLock(cdn: CdnRef, user: LockUser): Promise<void> {
    const [blocking] = await this.locks.blockingLocks(cdnOf(cdn), user.username, false);
    if (blocking) {
      throw new ForbiddenException(
        `user ${user.username} currently does not have the lock on cdn ${blocking.cdn}`,
      );
    }
  }
}

/** A CDN by id or by name, as the repository names it. */
function cdnOf(cdn: CdnRef): LockedCdns {
  return typeof cdn === 'number' ? { cdnId: cdn } : { cdnName: cdn };
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
