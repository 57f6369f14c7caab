import { UnitOfWork } from 'src/common/database/unit-of-work';
import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { translateDbErrors } from 'src/common/database/db-error';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { CdnLocksService, type LockUser } from 'src/modules/cdn-locks/cdn-locks.service';
import { ProfileDto } from './dto/profile.dto';
import { PROFILE_TYPES, Profile } from './profile.entity';

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
    @InjectRepository(Profile) private readonly profiles: Repository<Profile>,
    private readonly locks: CdnLocksService,
  ) {}

  /** The Traffic Router profiles (`TR_PROFILE`) with their CDN's domain, by profile id. */
  async domains(): Promise<CdnDomain[]> {
    const rows = await this.profiles
      .createQueryBuilder('profile')
      .innerJoin('profile.cdn', 'cdn')
      .select('profile.id', 'profileId')
      .addSelect('profile.name', 'profileName')
      .addSelect('profile.description', 'profileDescription')
      .addSelect('cdn.domain_name', 'domainName')
      .where('profile.type = :type', { type: 'TR_PROFILE' })
      .orderBy('profile.id', 'ASC')
      .getRawMany<{
        profileId: number | string;
        profileName: string;
        profileDescription: string | null;
        domainName: string;
      }>();
    return rows.map((row) => ({
      profileId: Number(row.profileId),
      parameterId: -1,
      profileName: row.profileName,
      profileDescription: row.profileDescription ?? '',
      domainName: row.domainName,
    }));
  }

  /** `param`: only the profiles that use that parameter (the original's `param` filter). */
  list(query: ListQuery, param?: number): Promise<Profile[]> {
    const qb = this.profiles.createQueryBuilder('profile').leftJoinAndSelect('profile.cdn', 'cdn');
    if (param !== undefined) {
      qb.andWhere(
        'EXISTS (SELECT 1 FROM profile_parameter pp WHERE pp.profile = profile.id AND pp.parameter = :param)',
        { param },
      );
    }
    return getPlainMany(applyListQuery(qb, query));
  }

  async find(id: number): Promise<Profile | null> {
    return this.profiles.findOne({ where: { id }, relations: { cdn: true } });
  }

  async findByName(name: string): Promise<Profile | null> {
    return this.profiles.findOne({ where: { name }, relations: { cdn: true } });
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
      return this.findOrFail(await insertRow(this.profiles.manager, this.profiles.target, columns));
    }
    const id = await this.unitOfWork.run(async (manager) => {
      await this.locks.assertCanModifyCdn(dto.cdn, user, manager);
      return insertRow(manager, this.profiles.target, columns);
    });
    return this.findOrFail(id);
  }

  /** The lock checked is the one of the CDN the request names, as the original's. */
  async update(id: number, dto: ProfileDto, user: LockUser): Promise<Profile> {
    const columns = this.columns(dto);
    const result = await this.unitOfWork.run(async (manager) => {
      await this.locks.assertCanModifyCdn(dto.cdn, user, manager);
      return manager.update(this.profiles.target, { id }, columns);
    });
    if (!result.affected) {
      throw new NotFoundException('no profile found with this id');
    }
    return this.findOrFail(id);
  }

  /**
   * Parameter assignments cascade; a profile still assigned to a server is refused; another user's
   * hard lock on the profile's CDN refuses it (403).
   */
  async remove(id: number, user: LockUser): Promise<void> {
    const result = await translateDbErrors(
      () =>
        this.unitOfWork.run(async (manager) => {
          await this.locks.assertCanModifyProfileCdn(id, user, manager);
          return manager.delete(this.profiles.target, { id });
        }),
      (failure) =>
        failure.kind === 'inUse' && failure.referencingTable === 'server_profile'
          ? new BadRequestException('cannot delete profile because it is being used by a server')
          : undefined,
    );
    if (!result.affected) {
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
