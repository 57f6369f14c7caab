import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Division } from './division.entity';
import { DivisionDto } from './dto/division.dto';

@Injectable()
export class DivisionsService {
  constructor(@InjectRepository(Division) private readonly divisions: Repository<Division>) {}

  list(query: ListQuery): Promise<Division[]> {
    return getPlainMany(applyListQuery(this.divisions.createQueryBuilder('division'), query));
  }

  /** A taken name is refused by the unique index (400 `division name '…' already exists.`). */
  async create(dto: DivisionDto): Promise<Division> {
    const id = await insertRow(this.divisions.manager, this.divisions.target, { name: dto.name });
    return this.divisions.findOneByOrFail({ id });
  }

  async update(id: number, dto: DivisionDto): Promise<Division> {
    const result = await this.divisions.update({ id }, { name: dto.name });
    if (!result.affected) {
      throw new NotFoundException('no division found with this id');
    }
    return this.divisions.findOneByOrFail({ id });
  }

  /** A division still holding regions is refused by the foreign key (400 `cannot delete division …`). */
  async remove(id: number): Promise<void> {
    const result = await this.divisions.delete({ id });
    if (!result.affected) {
      throw new NotFoundException('no division with that key found');
    }
  }
}
