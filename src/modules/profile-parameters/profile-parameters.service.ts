import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { UnitOfWork, type TransactionManager } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { Parameter } from 'src/modules/parameters/parameter.entity';
import { ParametersService } from 'src/modules/parameters/parameters.service';
import { CdnLocksService, type LockUser } from 'src/modules/cdn-locks/cdn-locks.service';
import type { ByNameParameter } from './dto/by-name.dto';
import type { ProfileParameterAssignment } from './dto/profile-parameter-assignment.dto';
import type { ParamProfileBody } from './dto/param-profile.dto';
import type { ImportedParameter } from './dto/profile-import.dto';
import { ProfileParameterDto } from './dto/profile-parameter.dto';
import type { ProfileParameter } from './profile-parameter.entity';
import { ProfileParametersRepository } from './profile-parameters.repository';

@Injectable()
export class ProfileParametersService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly links: ProfileParametersRepository,
    private readonly parameters: ParametersService,
    private readonly locks: CdnLocksService,
  ) {}

  list(query: ListQuery): Promise<ProfileParameter[]> {
    return this.links.list(query);
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
        await this.links.link(manager, pair.profileId, pair.parameterId);
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
      const problems: string[] = [];
      let profileName = '';
      if (body.profileId === null) {
        problems.push('profileId missing');
      } else {
        const name = await this.links.profileNameLocked(manager, body.profileId);
        if (name !== undefined) {
          profileName = name;
        } else {
          problems.push(`no profile with ID ${body.profileId} exists`);
        }
      }
      const ids = [...new Set(body.paramIds ?? [])];
      if (body.paramIds === null) {
        problems.push('paramIds missing');
      } else if (ids.length > 0) {
        const existing = await this.links.existingParametersLocked(manager, ids);
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
        await this.links.unlinkProfile(manager, profileId);
      }
      if (ids.length > 0) {
        await this.links.linkMissing(manager, profileId, ids);
      }
      return profileName;
    });
  }

  /** Another user's hard lock on the profile's CDN refuses it (403). */
  async remove(profileId: number, parameterId: number, user: LockUser): Promise<void> {
    const removed = await this.unitOfWork.run(async (manager) => {
      await this.locks.assertCanModifyProfileCdn(profileId, user, manager);
      return this.links.unlink(manager, profileId, parameterId);
    });
    if (!removed) {
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
        await this.links.linkUnlessLinked(manager, profileId, parameter.id);
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
      if (!(await this.links.parameterExists(manager, body.paramId))) {
        problems.push(`no parameter with ID ${body.paramId} exists`);
      }
      const unique = [...new Set(body.profileIds)];
      if (unique.length > 0) {
        if ((await this.links.profileCount(manager, unique)) !== unique.length) {
          problems.push(`profiles with IDs [${body.profileIds.join(' ')}] don't all exist`);
        }
      }
      if (problems.length > 0) {
        throw new BadRequestException(`parse error: validating: ${problems.join(', ')}`);
      }
      if (body.replace) {
        await this.links.unlinkParameter(manager, body.paramId);
      }
      for (const profileId of unique) {
        await this.links.linkUnlessLinked(manager, profileId, body.paramId);
      }
    });
  }

  /** Links `profileId` to every parameter `fromProfileId` has (a profile copy). */
  copyLinks(manager: TransactionManager, fromProfileId: number, profileId: number): Promise<void> {
    return this.links.copyLinks(manager, fromProfileId, profileId);
  }

  /**
   * The parameters of an imported profile: each found by name, config file and value, or created
   * (not secure); each linked once. Answers how many were new and how many existed.
   */
  async importParameters(
    manager: TransactionManager,
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
      await this.links.link(manager, profileId, id);
    }
    return { created, existing };
  }

  private async insertOrReuse(manager: TransactionManager, item: ByNameParameter): Promise<Parameter> {
    const { id } = await this.parameters.insertOrFind(manager, {
      name: item.name,
      configFile: item.configFile,
      value: item.value,
      secure: item.secure === 1,
    });
    return this.parameters.loadIn(manager, id);
  }

  /** The id of the CDN with this name, or undefined (read in the caller's transaction). */
  cdnId(manager: TransactionManager, name: string): Promise<number | undefined> {
    return this.links.cdnId(manager, name);
  }
}
