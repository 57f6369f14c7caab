import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Not, Repository } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Status } from './status.entity';

export type StatusColumns = Pick<Status, 'name' | 'description'>;

/** The status table: the only file of the module that runs SQL (docs/architecture.md#data-access). */
@Injectable()
export class StatusesRepository {
  constructor(@InjectRepository(Status) private readonly statuses: Repository<Status>) {}

  list(query: ListQuery): Promise<Status[]> {
    return getPlainMany(applyListQuery(this.statuses.createQueryBuilder('status'), query));
  }

  byId(id: number): Promise<Status | null> {
    return this.statuses.findOneBy({ id });
  }

  /** Adds a status and answers it as stored. */
  async add(columns: StatusColumns): Promise<Status> {
    const id = await insertRow(this.statuses.manager, this.statuses.target, columns);
    return this.statuses.findOneByOrFail({ id });
  }

  /**
   * One conditional UPDATE, so that a status named in `reserved` is never changed whatever runs
   * beside it: the row as stored afterwards, or undefined when none was changed.
   */
  async changeUnless(reserved: string[], id: number, columns: StatusColumns): Promise<Status | undefined> {
    const result = await this.statuses.update({ id, name: Not(In(reserved)) }, columns);
    return result.affected ? this.statuses.findOneByOrFail({ id }) : undefined;
  }

  /** One conditional DELETE, likewise: whether one was deleted. */
  async removeUnless(reserved: string[], id: number): Promise<boolean> {
    return Boolean((await this.statuses.delete({ id, name: Not(In(reserved)) })).affected);
  }
}
