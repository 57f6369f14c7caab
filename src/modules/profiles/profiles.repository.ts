import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Profile } from './profile.entity';

/** A Traffic Router profile and its CDN's domain, as read. */
export interface TrafficRouterDomainRow {
  profileId: number;
  profileName: string;
  profileDescription: string | null;
  domainName: string;
}

/**
 * The profile table: the only file of the module that runs SQL (docs/architecture.md#data-access).
 * Methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class ProfilesRepository {
  constructor(@InjectRepository(Profile) private readonly profiles: Repository<Profile>) {}

  /** The Traffic Router profiles (`TR_PROFILE`) with their CDN's domain, by profile id. */
  async trafficRouterDomains(): Promise<TrafficRouterDomainRow[]> {
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
    return rows.map((row) => ({ ...row, profileId: Number(row.profileId) }));
  }

  /** The page of profiles with their CDN; `param`: only those that use that parameter. */
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

  /** One profile with its CDN, by id or name. */
  find(where: { id: number } | { name: string }): Promise<Profile | null> {
    return this.profiles.findOne({ where, relations: { cdn: true } });
  }

  /** Adds a profile (on `manager` when given): its id. */
  add(columns: Partial<Profile>, manager: EntityManager = this.profiles.manager): Promise<number> {
    return insertRow(manager, this.profiles.target, columns);
  }

  /** Changes a profile on `manager`: whether there was one. */
  async change(manager: EntityManager, id: number, columns: Partial<Profile>): Promise<boolean> {
    return Boolean((await manager.update(this.profiles.target, { id }, columns)).affected);
  }

  /** Deletes a profile on `manager`: whether there was one. */
  async remove(manager: EntityManager, id: number): Promise<boolean> {
    return Boolean((await manager.delete(this.profiles.target, { id })).affected);
  }
}
