import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Not, In, Repository } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { StatusDto } from './dto/status.dto';
import { Status } from './status.entity';

/**
 * The statuses Traffic Control's components give a meaning to: they can be neither renamed nor
 * deleted (the original's reserved statuses; 403 `cannot modify ONLINE status`).
 */
export const RESERVED_STATUSES = ['ADMIN_DOWN', 'OFFLINE', 'ONLINE', 'PRE_PROD', 'REPORTED'];

@Injectable()
export class StatusesService {
  constructor(@InjectRepository(Status) private readonly statuses: Repository<Status>) {}

  list(query: ListQuery): Promise<Status[]> {
    return getPlainMany(applyListQuery(this.statuses.createQueryBuilder('status'), query));
  }

  /** A taken name is refused by the unique index (400 `status name '…' already exists.`). */
  async create(dto: StatusDto): Promise<Status> {
    const id = await insertRow(this.statuses.manager, this.statuses.target, {
      name: dto.name,
      description: dto.description ?? null,
    });
    return this.statuses.findOneByOrFail({ id });
  }

  /** One conditional UPDATE: a reserved status is never changed, whatever runs beside it. */
  async update(id: number, dto: StatusDto): Promise<Status> {
    const result = await this.statuses.update(
      { id, name: Not(In(RESERVED_STATUSES)) },
      { name: dto.name, description: dto.description ?? null },
    );
    if (!result.affected) {
      await this.refuse(id, 'modify', 'no status found with this id');
    }
    return this.statuses.findOneByOrFail({ id });
  }

  /** A status still given to a server is refused by the foreign key (400). */
  async remove(id: number): Promise<void> {
    const result = await this.statuses.delete({ id, name: Not(In(RESERVED_STATUSES)) });
    if (!result.affected) {
      await this.refuse(id, 'delete', 'no status with that key found');
    }
  }

  /** Why a conditional write touched nothing: the status is reserved (403) or does not exist (404). */
  private async refuse(id: number, action: 'modify' | 'delete', notFound: string): Promise<never> {
    const status = await this.statuses.findOneBy({ id });
    if (status) {
      throw new ForbiddenException(`cannot ${action} ${status.name} status`);
    }
    throw new NotFoundException(notFound);
  }
}
