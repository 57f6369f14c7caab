import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { translateDbErrors } from 'src/common/database/db-error';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import { CdnLocksService, type LockUser } from 'src/modules/cdn-locks/cdn-locks.service';
import { ProfileDto } from './dto/profile.dto';
import { PROFILE_TYPES, type Profile } from './profile.entity';
import { ProfilesRepository } from './profiles.repository';

/** An entry of `GET cdns/domains`: a Traffic Router profile and its CDN's domain. */
export interface CdnDomain {
  profileId: number;
  parameterId: number;
  profileName: string;
  profileDescription: string;
  domainName: string;
}

@Injectable()
export class ProfilesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly profiles: ProfilesRepository,
    private readonly locks: CdnLocksService,
  ) {}

  /** The Traffic Router profiles (`TR_PROFILE`) with their CDN's domain, by profile id. */
  async domains(): Promise<CdnDomain[]> {
    const rows = await this.profiles.trafficRouterDomains();
    return rows.map((row) => ({
      profileId: row.profileId,
      parameterId: -1,
      profileName: row.profileName,
      profileDescription: row.profileDescription ?? '',
      domainName: row.domainName,
    }));
  }

  /** `param`: only the profiles that use that parameter (the original's `param` filter). */
  list(query: ListQuery, param?: number): Promise<Profile[]> {
    return this.profiles.list(query, param);
  }

  find(id: number): Promise<Profile | null> {
    return this.profiles.find({ id });
  }

  findByName(name: string): Promise<Profile | null> {
    return this.profiles.find({ name });
  }

  /**
   * Name uniqueness and the CDN's existence are the database's (400 / 404). Another user's hard
   * lock on the CDN refuses it (403), checked in the write's transaction (docs/original-behaviour.md#cdn-locks).
   * Without `user` (the copy and import routes, which the original does not lock-check) the row is
   * inserted as is.
   */
  async create(dto: ProfileDto, user?: LockUser): Promise<Profile> {
    const columns = this.columns(dto);
    if (!user) {
      return this.findOrFail(await this.profiles.add(columns));
    }
    const id = await this.unitOfWork.run(async (manager) => {
      await this.locks.assertCanModifyCdn(dto.cdn, user, manager);
      return this.profiles.add(columns, manager);
    });
    return this.findOrFail(id);
  }

  /** The lock checked is the one of the CDN the request names, as the original's. */
  async update(id: number, dto: ProfileDto, user: LockUser): Promise<Profile> {
    const columns = this.columns(dto);
    const changed = await this.unitOfWork.run(async (manager) => {
      await this.locks.assertCanModifyCdn(dto.cdn, user, manager);
      return this.profiles.change(manager, id, columns);
    });
    if (!changed) {
      throw new NotFoundException('no profile found with this id');
    }
    return this.findOrFail(id);
  }

  /**
   * Parameter assignments cascade; a profile still assigned to a server is refused; another user's
   * hard lock on the profile's CDN refuses it (403).
   */
  async remove(id: number, user: LockUser): Promise<void> {
    const removed = await translateDbErrors(
      () =>
        this.unitOfWork.run(async (manager) => {
          await this.locks.assertCanModifyProfileCdn(id, user, manager);
          return this.profiles.remove(manager, id);
        }),
      (failure) =>
        failure.kind === 'inUse' && failure.referencingTable === 'server_profile'
          ? new BadRequestException('cannot delete profile because it is being used by a server')
          : undefined,
    );
    if (!removed) {
      throw new NotFoundException('no profile with that key found');
    }
  }

  private async findOrFail(id: number): Promise<Profile> {
    const profile = await this.find(id);
    if (!profile) {
      throw new NotFoundException('no profile found with this id');
    }
    return profile;
  }

  private columns(dto: ProfileDto): Partial<Profile> {
    if (!(PROFILE_TYPES as readonly string[]).includes(dto.type)) {
      // The original's PostgreSQL enum refuses it with this text (api.ParseDBError).
      throw new BadRequestException(`invalid enum value ${dto.type} for field profile_type.`);
    }
    return {
      name: dto.name,
      description: dto.description,
      cdnId: dto.cdn,
      type: dto.type,
      routingDisabled: dto.routingDisabled ?? false,
    };
  }
}
