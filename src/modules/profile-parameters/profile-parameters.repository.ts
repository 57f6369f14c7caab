import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository } from 'typeorm';
import { classifyDbError } from 'src/common/database/db-error';
import { lockingClause } from 'src/common/database/locks';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { ProfileParameter } from './profile-parameter.entity';

/** `?, ?, …` for `n` values. */
const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/**
 * The profile_parameter table, and what its rules read of profiles, parameters and CDNs: the only
 * file of the module that runs SQL (docs/architecture.md#data-access). Methods taking a `manager`
 * run in the caller's transaction.
 */
@Injectable()
export class ProfileParametersRepository {
  constructor(@InjectRepository(ProfileParameter) private readonly links: Repository<ProfileParameter>) {}

  /** The page of links, each with its profile. */
  list(query: ListQuery): Promise<ProfileParameter[]> {
    const qb = this.links.createQueryBuilder('pp').innerJoinAndSelect('pp.profile', 'prof');
    return getPlainMany(applyListQuery(qb, query));
  }

  /**
   * Links a profile and a parameter. The INSERT is written by hand: TypeORM inlines the values of
   * columns that are also relation join columns, and the database-error mapping reads the
   * duplicate's values from the bound ones.
   */
  async link(manager: EntityManager, profileId: number, parameterId: number): Promise<void> {
    await manager.query('INSERT INTO profile_parameter (profile, parameter) VALUES (?, ?)', [
      profileId,
      parameterId,
    ]);
  }

  /** `link`, unless the link exists (unique index): whether it was added. Other failures propagate. */
  async linkUnlessLinked(manager: EntityManager, profileId: number, parameterId: number): Promise<boolean> {
    try {
      await this.link(manager, profileId, parameterId);
      return true;
    } catch (error) {
      if (classifyDbError(error)?.kind === 'unique') {
        return false;
      }
      throw error;
    }
  }

  /** Links the profile to those of `parameterIds` it is not linked to yet, in one statement. */
  async linkMissing(manager: EntityManager, profileId: number, parameterIds: number[]): Promise<void> {
    await manager.query(
      'INSERT INTO profile_parameter (profile, parameter) SELECT ?, p.id FROM parameter p ' +
        `WHERE p.id IN (${placeholders(parameterIds.length)}) AND NOT EXISTS (` +
        'SELECT 1 FROM profile_parameter x WHERE x.profile = ? AND x.parameter = p.id)',
      [profileId, ...parameterIds, profileId],
    );
  }

  /** Links `profileId` to every parameter `fromProfileId` has. */
  async copyLinks(manager: EntityManager, fromProfileId: number, profileId: number): Promise<void> {
    await manager.query(
      'INSERT INTO profile_parameter (profile, parameter) SELECT ?, parameter FROM profile_parameter WHERE profile = ?',
      [profileId, fromProfileId],
    );
  }

  /** Deletes one link: whether there was one. */
  async unlink(manager: EntityManager, profileId: number, parameterId: number): Promise<boolean> {
    return Boolean((await manager.delete(ProfileParameter, { profileId, parameterId })).affected);
  }

  /** Deletes every link of the profile. */
  async unlinkProfile(manager: EntityManager, profileId: number): Promise<void> {
    await manager.query('DELETE FROM profile_parameter WHERE profile = ?', [profileId]);
  }

  /** Deletes every link of the parameter. */
  async unlinkParameter(manager: EntityManager, parameterId: number): Promise<void> {
    await manager.delete(ProfileParameter, { parameterId });
  }

  /** The profile's name, share-locked until the write commits, or undefined. */
  async profileNameLocked(manager: EntityManager, profileId: number): Promise<string | undefined> {
    const lock = lockingClause(manager.connection, 'share');
    const [profile] = await manager.query<{ name: string }[]>(
      `SELECT name FROM profile WHERE id = ?${lock}`,
      [profileId],
    );
    return profile?.name;
  }

  /** Those of these parameters that exist, share-locked until the write commits. */
  async existingParametersLocked(manager: EntityManager, ids: number[]): Promise<Set<number>> {
    const lock = lockingClause(manager.connection, 'share');
    const found = await manager.query<{ id: number | string }[]>(
      `SELECT id FROM parameter WHERE id IN (${placeholders(ids.length)})${lock}`,
      ids,
    );
    return new Set(found.map((row) => Number(row.id)));
  }

  /** Whether the parameter exists. */
  async parameterExists(manager: EntityManager, id: number): Promise<boolean> {
    const [param] = await manager.query<{ n: number | string }[]>(
      'SELECT COUNT(*) AS n FROM parameter WHERE id = ?',
      [id],
    );
    return Number(param.n) > 0;
  }

  /** How many of these (distinct) profiles exist. */
  async profileCount(manager: EntityManager, ids: number[]): Promise<number> {
    const [profiles] = await manager.query<{ n: number | string }[]>(
      `SELECT COUNT(*) AS n FROM profile WHERE id IN (${placeholders(ids.length)})`,
      ids,
    );
    return Number(profiles.n);
  }

  /** The id of the CDN with this name, or undefined. */
  async cdnId(manager: EntityManager, name: string): Promise<number | undefined> {
    const rows = await manager.query<{ id: number | string }[]>('SELECT id FROM cdn WHERE name = ?', [name]);
    return rows.length === 0 ? undefined : Number(rows[0].id);
  }
}
