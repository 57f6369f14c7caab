import { UnitOfWork } from 'src/common/database/unit-of-work';
import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { PhysLocationDto } from './dto/phys-location.dto';
import { PhysLocation } from './phys-location.entity';

@Injectable()
export class PhysLocationsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectRepository(PhysLocation) private readonly physLocations: Repository<PhysLocation>,
  ) {}

  list(query: ListQuery): Promise<PhysLocation[]> {
    const qb = this.physLocations.createQueryBuilder('pl').innerJoinAndSelect('pl.region', 'region');
    return getPlainMany(applyListQuery(qb, query));
  }

  /**
   * An unknown region is the foreign key's 404 (`region not found`); a taken name or short name the
   * unique indexes' 400 (`phys_location name '…' already exists.`).
   */
  create(dto: PhysLocationDto): Promise<PhysLocation> {
    return this.unitOfWork.run(async (manager) => {
      return this.findOne(manager, await insertRow(manager, PhysLocation, this.columns(dto)));
    });
  }

  update(id: number, dto: PhysLocationDto): Promise<PhysLocation> {
    return this.unitOfWork.run(async (manager) => {
      const result = await manager.update(PhysLocation, { id }, this.columns(dto));
      if (!result.affected) {
        throw new NotFoundException('no physLocation found with this id');
      }
      return this.findOne(manager, id);
    });
  }

  /** A phys_location still holding servers is refused by the foreign key (400 `cannot delete …`). */
  async remove(id: number): Promise<void> {
    const result = await this.physLocations.delete({ id });
    if (!result.affected) {
      throw new NotFoundException('no physLocation with that key found');
    }
  }

  private columns(dto: PhysLocationDto): Partial<PhysLocation> {
    return {
      name: dto.name,
      shortName: dto.shortName,
      address: dto.address,
      city: dto.city,
      state: dto.state,
      zip: dto.zip,
      regionId: dto.regionId,
      poc: dto.poc ?? null,
      phone: dto.phone ?? null,
      email: dto.email ?? null,
      comments: dto.comments ?? null,
    };
  }

  private findOne(manager: EntityManager, id: number): Promise<PhysLocation> {
    return manager.findOneOrFail(PhysLocation, { where: { id }, relations: { region: true } });
  }
}
