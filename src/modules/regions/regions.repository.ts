import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, type FindOptionsWhere, Repository } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Region } from './region.entity';

export type RegionColumns = Pick<Region, 'name' | 'divisionId'>;

/** The region table: the only file of the module that runs SQL (docs/architecture.md#data-access). */
@Injectable()
export class RegionsRepository {
  constructor(@InjectRepository(Region) private readonly regions: Repository<Region>) {}

  /** The page of regions, each with its division. */
  list(query: ListQuery): Promise<Region[]> {
    const qb = this.regions.createQueryBuilder('region').innerJoinAndSelect('region.division', 'division');
    return getPlainMany(applyListQuery(qb, query));
  }

  /** Adds a region on `manager` and answers it with its division. */
  async add(manager: EntityManager, columns: RegionColumns): Promise<Region> {
    return this.withDivision(manager, await insertRow(manager, Region, columns));
  }

  /** Changes a region on `manager`: it with its division afterwards, or undefined when there is none. */
  async change(manager: EntityManager, id: number, columns: RegionColumns): Promise<Region | undefined> {
    const result = await manager.update(Region, { id }, columns);
    return result.affected ? this.withDivision(manager, id) : undefined;
  }

  /** Deletes the region with the given id and/or name: whether there was one. */
  async remove(key: { id?: number; name?: string }): Promise<boolean> {
    const where: FindOptionsWhere<Region> = {};
    if (key.id !== undefined) {
      where.id = key.id;
    }
    if (key.name !== undefined) {
      where.name = key.name;
    }
    return Boolean((await this.regions.delete(where)).affected);
  }

  private withDivision(manager: EntityManager, id: number): Promise<Region> {
    return manager.findOneOrFail(Region, { where: { id }, relations: { division: true } });
  }
}
