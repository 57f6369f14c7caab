import { UnitOfWork } from 'src/common/database/unit-of-work';
import { Injectable, NotFoundException } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import { PhysLocationDto } from './dto/phys-location.dto';
import type { PhysLocation } from './phys-location.entity';
import { PhysLocationsRepository } from './phys-locations.repository';

@Injectable()
export class PhysLocationsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly physLocations: PhysLocationsRepository,
  ) {}

  list(query: ListQuery): Promise<PhysLocation[]> {
    return this.physLocations.list(query);
  }

  /**
   * An unknown region is the foreign key's 404 (`region not found`); a taken name or short name the
   * unique indexes' 400 (`phys_location name '…' already exists.`).
   */
  create(dto: PhysLocationDto): Promise<PhysLocation> {
    return this.unitOfWork.run((manager) => this.physLocations.add(manager, this.columns(dto)));
  }

  update(id: number, dto: PhysLocationDto): Promise<PhysLocation> {
    return this.unitOfWork.run(async (manager) => {
      const physLocation = await this.physLocations.change(manager, id, this.columns(dto));
      if (!physLocation) {
        throw new NotFoundException('no physLocation found with this id');
      }
      return physLocation;
    });
  }

  /** A phys_location still holding servers is refused by the foreign key (400 `cannot delete …`). */
  async remove(id: number): Promise<void> {
    if (!(await this.physLocations.remove(id))) {
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
}
