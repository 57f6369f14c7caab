import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { PhysLocation } from './phys-location.entity';

/** The phys_location table: the only file of the module that runs SQL (docs/architecture.md#data-access). */
@Injectable()
export class PhysLocationsRepository {
  constructor(@InjectRepository(PhysLocation) private readonly physLocations: Repository<PhysLocation>) {}

  /** The page of phys_locations, each with its region. */
  list(query: ListQuery): Promise<PhysLocation[]> {
    const qb = this.physLocations.createQueryBuilder('pl').innerJoinAndSelect('pl.region', 'region');
    return getPlainMany(applyListQuery(qb, query));
  }

  /** Adds a phys_location on `manager` and answers it with its region. */
  async add(manager: EntityManager, columns: Partial<PhysLocation>): Promise<PhysLocation> {
    return this.withRegion(manager, await insertRow(manager, PhysLocation, columns));
  }

  /** Changes a phys_location on `manager`: it with its region afterwards, or undefined when there is none. */
  async change(
    manager: EntityManager,
    id: number,
    columns: Partial<PhysLocation>,
  ): Promise<PhysLocation | undefined> {
    const result = await manager.update(PhysLocation, { id }, columns);
    return result.affected ? this.withRegion(manager, id) : undefined;
  }

  /** Deletes a phys_location: whether there was one. */
  async remove(id: number): Promise<boolean> {
    return Boolean((await this.physLocations.delete({ id })).affected);
  }

  private withRegion(manager: EntityManager, id: number): Promise<PhysLocation> {
    return manager.findOneOrFail(PhysLocation, { where: { id }, relations: { region: true } });
  }
}
