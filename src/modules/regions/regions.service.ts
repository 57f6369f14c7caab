import { UnitOfWork } from 'src/common/database/unit-of-work';
import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, type FindOptionsWhere, Repository } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { type RegionDto, regionProblem } from './dto/region.dto';
import { Region } from './region.entity';

export interface RegionKey {
  id?: number;
  name?: string;
}

@Injectable()
export class RegionsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectRepository(Region) private readonly regions: Repository<Region>,
  ) {}

  list(query: ListQuery): Promise<Region[]> {
    const qb = this.regions.createQueryBuilder('region').innerJoinAndSelect('region.division', 'division');
    return getPlainMany(applyListQuery(qb, query));
  }

  /**
   * An unknown division is the foreign key's 404 (`division not found`), a taken name the unique
   * index's 400 (`region name '…' already exists.`).
   */
  create(dto: RegionDto): Promise<Region> {
    const columns = this.columns(dto);
    return this.unitOfWork.run(async (manager) => {
      return this.findOne(manager, await insertRow(manager, Region, columns));
    });
  }

  update(id: number, dto: RegionDto): Promise<Region> {
    const columns = this.columns(dto);
    return this.unitOfWork.run(async (manager) => {
      const result = await manager.update(Region, { id }, columns);
      if (!result.affected) {
        throw new NotFoundException('no region found with this id');
      }
      return this.findOne(manager, id);
    });
  }

  /**
   * DELETE /regions?id=&name= (the original's options delete): by id, by name, or by both, which must
   * then name the same row. A region still holding phys_locations is refused by the foreign key.
   */
  async remove(key: RegionKey): Promise<void> {
    if (key.id === undefined && key.name === undefined) {
      throw new BadRequestException('Refusing to delete all resources of type Region');
    }
    const where: FindOptionsWhere<Region> = {};
    if (key.id !== undefined) {
      where.id = key.id;
    }
    if (key.name !== undefined) {
      where.name = key.name;
    }
    const result = await this.regions.delete(where);
    if (!result.affected) {
      throw new NotFoundException('no region with that key found');
    }
  }

  private columns(dto: RegionDto): Pick<Region, 'name' | 'divisionId'> {
    const problem = regionProblem(dto);
    if (problem) {
      throw new BadRequestException(problem);
    }
    return { name: dto.name!, divisionId: dto.division! };
  }

  private findOne(manager: EntityManager, id: number): Promise<Region> {
    return manager.findOneOrFail(Region, { where: { id }, relations: { division: true } });
  }
}
