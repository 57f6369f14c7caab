import { Injectable, NotFoundException } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { Division } from './division.entity';
import { DivisionsRepository } from './divisions.repository';
import { DivisionDto } from './dto/division.dto';

@Injectable()
export class DivisionsService {
  constructor(private readonly divisions: DivisionsRepository) {}

  list(query: ListQuery): Promise<Division[]> {
    return this.divisions.list(query);
  }

  /** A taken name is refused by the unique index (400 `division name '…' already exists.`). */
  create(dto: DivisionDto): Promise<Division> {
    return this.divisions.add(dto.name);
  }

  async update(id: number, dto: DivisionDto): Promise<Division> {
    const division = await this.divisions.rename(id, dto.name);
    if (!division) {
      throw new NotFoundException('no division found with this id');
    }
    return division;
  }

  /** A division still holding regions is refused by the foreign key (400 `cannot delete division …`). */
  async remove(id: number): Promise<void> {
    if (!(await this.divisions.remove(id))) {
      throw new NotFoundException('no division with that key found');
    }
  }
}
