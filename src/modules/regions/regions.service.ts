import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import { type RegionDto, regionProblem } from './dto/region.dto';
import type { Region } from './region.entity';
import { RegionsRepository, type RegionColumns } from './regions.repository';

export interface RegionKey {
  id?: number;
  name?: string;
}

@Injectable()
export class RegionsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly regions: RegionsRepository,
  ) {}

  list(query: ListQuery): Promise<Region[]> {
    return this.regions.list(query);
  }

  /**
   * An unknown division is the foreign key's 404 (`division not found`), a taken name the unique
   * index's 400 (`region name '…' already exists.`).
   */
  create(dto: RegionDto): Promise<Region> {
    const columns = this.columns(dto);
    return this.unitOfWork.run((manager) => this.regions.add(manager, columns));
  }

  update(id: number, dto: RegionDto): Promise<Region> {
    const columns = this.columns(dto);
    return this.unitOfWork.run(async (manager) => {
      const region = await this.regions.change(manager, id, columns);
      if (!region) {
        throw new NotFoundException('no region found with this id');
      }
      return region;
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
    if (!(await this.regions.remove(key))) {
      throw new NotFoundException('no region with that key found');
    }
  }

  private columns(dto: RegionDto): RegionColumns {
    const problem = regionProblem(dto);
    if (problem) {
      throw new BadRequestException(problem);
    }
    return { name: dto.name!, divisionId: dto.division! };
  }
}
