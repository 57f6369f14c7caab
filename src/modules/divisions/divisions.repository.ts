import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Division } from './division.entity';

/** The division table: the only file of the module that runs SQL (docs/architecture.md#data-access). */
@Injectable()
export class DivisionsRepository {
  constructor(@InjectRepository(Division) private readonly divisions: Repository<Division>) {}

  list(query: ListQuery): Promise<Division[]> {
    return getPlainMany(applyListQuery(this.divisions.createQueryBuilder('division'), query));
  }

  /** Adds a division and answers it as stored. */
  async add(name: string): Promise<Division> {
    const id = await insertRow(this.divisions.manager, this.divisions.target, { name });
    return this.divisions.findOneByOrFail({ id });
  }

  /** Renames a division: its row as stored afterwards, or undefined when there is none. */
  async rename(id: number, name: string): Promise<Division | undefined> {
    const result = await this.divisions.update({ id }, { name });
    return result.affected ? this.divisions.findOneByOrFail({ id }) : undefined;
  }

  /** Deletes a division: whether there was one. */
  async remove(id: number): Promise<boolean> {
    return Boolean((await this.divisions.delete({ id })).affected);
  }
}
