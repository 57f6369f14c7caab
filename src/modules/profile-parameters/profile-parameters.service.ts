import { UnitOfWork } from 'src/common/database/unit-of-work';
import { getPlainMany } from 'src/common/database/plain-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository } from 'typeorm';
import { classifyDbError } from 'src/common/database/db-error';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { Parameter } from 'src/modules/parameters/parameter.entity';
import { ParametersService } from 'src/modules/parameters/parameters.service';
import { CdnLocksService, type LockUser } from 'src/modules/cdn-locks/cdn-locks.service';
import type { ByNameParameter } from './dto/by-name.body';
import type { ProfileParameterAssignment } from './dto/profile-parameter-assignment.body';
import type { ParamProfileBody } from './dto/param-profile.body';
import type { ImportedParameter } from './dto/profile-import.body';
import { ProfileParameterDto } from './dto/profile-parameter.dto';
import { ProfileParameter } from './profile-parameter.entity';
import { lockingClause } from 'src/common/database/locks';

/**
 * The link INSERT, written by hand: TypeORM inlines the values of columns that are also relation
 * join columns, and the database-error mapping reads the duplicate's values from the bound ones.
 */
function insertLink(manager: EntityManager, profileId: number, parameterId: number): Promise<unknown> {
  return manager.query('INSERT INTO profile_parameter (profile, parameter) VALUES (?, ?)', [
    profileId,
    parameterId,
  ]);
}

/** Runs an INSERT; false when the row already exists (unique index). Other failures propagate. */
async function insertUnlessExists(insert: () => Promise<unknown>): Promise<boolean> {
  try {
    await insert();
    return true;
  } catch (error) {
    if (classifyDbError(error)?.kind === 'unique') {
      return false;
    }
    throw error;
  }
}

@Injectable()
export class ProfileParametersService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectRepository(ProfileParameter) private readonly links: Repository<ProfileParameter>,
    private readonly parameters: ParametersService,
    private readonly locks: CdnLocksService,
  ) {}

  list(query: ListQuery): Promise<ProfileParameter[]> {
    const qb = this.links.createQueryBuilder('pp').innerJoinAndSelect('pp.profile', 'prof');
    return getPlainMany(applyListQuery(qb, query));
  }

  /**
   * All pairs in one transaction. A pair that exists, an unknown profile or an unknown parameter is
   * refused by the database (400 `profile_parameter profile, parameter '…' already exists.`,
   * 404 `profile not found` / `parameter not found`) and nothing is written. Another user's hard
   * lock on a profile's CDN refuses it (403), checked in the same transaction.
   */
  create(pairs: ProfileParameterDto[], user: LockUser): Promise<void> {
    return this.unitOfWork.run(async (manager) => {
      for (const pair of pairs) {
        await this.locks.assertCanModifyProfileCdn(pair.profileId, user, manager);
        await insertLink(manager, pair.profileId, pair.parameterId);
      }
    });
  }

  /**
   * POST /profileparameter (docs/original-behaviour.md#profileparameter): checks the profile and
   * every parameter exist (one 400 naming every problem, in the original's words), then, in one
   * transaction, removes the profile's links when `replace` is set and links the parameters it does
   * not have yet. The profile and parameters read are share-locked until the write commits, and the
   * foreign keys still refuse a row deleted meanwhile. Answers the profile's name.
   */
  assignToProfile(body: ProfileParameterAssignment): Promise<string> {
    return this.unitOfWork.run(async (manager) => {
      const lock = lockingClause(manager.connection, 'share');
      const problems: string[] = [];
      let profileName = '';
      if (body.profileId === null) {
        problems.push('profileId missing');
      } else {
        const [profile] = await manager.query<{ name: string }[]>(
          `SELECT name FROM profile WHERE id = ?${lock}`,
          [body.profileId],
        );
        if (profile) {
          profileName = profile.name;
        } else {
          problems.push(`no profile with ID ${body.profileId} exists`);
        }
      }
      const ids = [...new Set(body.paramIds ?? [])];
      if (body.paramIds === null) {
        problems.push('paramIds missing');
      } else if (ids.length > 0) {
        const found = await manager.query<{ id: number | string }[]>(
          `SELECT id FROM parameter WHERE id IN (${ids.map(() => '?').join(', ')})${lock}`,
          ids,
        );
        const existing = new Set(found.map((row) => Number(row.id)));
        const missing = body.paramIds.filter((id) => !existing.has(id));
        if (missing.length > 0) {
          problems.push(`parameters with IDs [${missing.join(' ')}] don't exist`);
        }
      }
      if (problems.length > 0) {
        throw new BadRequestException(`parse error: validating: ${problems.join(', ')}`);
      }
      const profileId = body.profileId!;
      if (body.replace) {
        await manager.query('DELETE FROM profile_parameter WHERE profile = ?', [profileId]);
      }
      if (ids.length > 0) {
        await manager.query(
          'INSERT INTO profile_parameter (profile, parameter) SELECT ?, p.id FROM parameter p ' +
            `WHERE p.id IN (${ids.map(() => '?').join(', ')}) AND NOT EXISTS (` +
            'SELECT 1 FROM profile_parameter x WHERE x.profile = ? AND x.parameter = p.id)',
          [profileId, ...ids, profileId],
        );
      }
      return profileName;
    });
  }

  /** Another user's hard lock on the profile's CDN refuses it (403). */
  async remove(profileId: number, parameterId: number, user: LockUser): Promise<void> {
    const result = await this.unitOfWork.run(async (manager) => {
      await this.locks.assertCanModifyProfileCdn(profileId, user, manager);
      return manager.delete(ProfileParameter, { profileId, parameterId });
    });
    if (!result.affected) {
      throw new NotFoundException('no profileParameter with that key found');
    }
  }

  /**
   * POST profiles/name/{name}/parameters, in one transaction: each parameter is inserted, or, when
   * the unique index says it exists, the existing row is used (its `secure` unchanged); each link
   * is inserted unless it exists. No SELECT decides before a write, so concurrent requests cannot
   * both create a parameter. A failed statement leaves the transaction usable on MySQL and SQLite.
   */
  assignByName(profileId: number, items: ByNameParameter[]): Promise<Parameter[]> {
    return this.unitOfWork.run(async (manager) => {
      const assigned: Parameter[] = [];
      for (const item of items) {
        const parameter = await this.insertOrReuse(manager, item);
        await insertUnlessExists(() => insertLink(manager, profileId, parameter.id));
        assigned.push(parameter);
      }
      return assigned;
    });
  }

  /**
   * POST /parameterprofile: the parameter and every profile must exist (the original's validation
   * texts); `replace` first removes the parameter's other links; existing links are kept.
   */
  assignToParameter(body: ParamProfileBody): Promise<void> {
    return this.unitOfWork.run(async (manager) => {
      const problems: string[] = [];
      const [param] = await manager.query<{ n: number | string }[]>(
        'SELECT COUNT(*) AS n FROM parameter WHERE id = ?',
        [body.paramId],
      );
      if (Number(param.n) === 0) {
        problems.push(`no parameter with ID ${body.paramId} exists`);
      }
      const unique = [...new Set(body.profileIds)];
      if (unique.length > 0) {
        const [profiles] = await manager.query<{ n: number | string }[]>(
          `SELECT COUNT(*) AS n FROM profile WHERE id IN (${unique.map(() => '?').join(', ')})`,
          unique,
        );
        if (Number(profiles.n) !== unique.length) {
          problems.push(`profiles with IDs [${body.profileIds.join(' ')}] don't all exist`);
        }
      }
      if (problems.length > 0) {
        throw new BadRequestException(`parse error: validating: ${problems.join(', ')}`);
      }
      if (body.replace) {
        await manager.delete(ProfileParameter, { parameterId: body.paramId });
      }
      for (const profileId of unique) {
        await insertUnlessExists(() => insertLink(manager, profileId, body.paramId));
      }
    });
  }

  /** Links `profileId` to every parameter `fromProfileId` has (a profile copy). */
  async copyLinks(manager: EntityManager, fromProfileId: number, profileId: number): Promise<void> {
    await manager.query(
      'INSERT INTO profile_parameter (profile, parameter) SELECT ?, parameter FROM profile_parameter WHERE profile = ?',
      [profileId, fromProfileId],
    );
  }

  /**
   * The parameters of an imported profile: each found by name, config file and value, or created
   * (not secure); each linked once. Answers how many were new and how many existed.
   */
  async importParameters(
    manager: EntityManager,
    profileId: number,
    parameters: ImportedParameter[],
  ): Promise<{ created: number; existing: number }> {
    const linked = new Set<number>();
    let created = 0;
    let existing = 0;
    for (const item of parameters) {
      const { id, inserted } = await this.parameters.insertOrFind(manager, {
        name: item.name,
        configFile: item.configFile,
        value: item.value,
        secure: false,
      });
      if (linked.has(id)) {
        continue;
      }
      linked.add(id);
      if (inserted) {
        created++;
      } else {
        existing++;
      }
      await insertLink(manager, profileId, id);
    }
    return { created, existing };
  }

  private async insertOrReuse(manager: EntityManager, item: ByNameParameter): Promise<Parameter> {
    const { id } = await this.parameters.insertOrFind(manager, {
      name: item.name,
      configFile: item.configFile,
      value: item.value,
      secure: item.secure === 1,
    });
    return this.parameters.loadIn(manager, id);
  }
}
