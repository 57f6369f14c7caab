import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import { StatusDto } from './dto/status.dto';
import type { Status } from './status.entity';
import { StatusesRepository } from './statuses.repository';

/**
 * The statuses Traffic Control's components give a meaning to: they can be neither renamed nor
 * deleted (the original's reserved statuses; 403 `cannot modify ONLINE status`).
 */
export const RESERVED_STATUSES = ['ADMIN_DOWN', 'OFFLINE', 'ONLINE', 'PRE_PROD', 'REPORTED'];

@Injectable()
export class StatusesService {
  constructor(private readonly statuses: StatusesRepository) {}

  list(query: ListQuery): Promise<Status[]> {
    return this.statuses.list(query);
  }

  /** A taken name is refused by the unique index (400 `status name '…' already exists.`). */
  create(dto: StatusDto): Promise<Status> {
    return this.statuses.add({ name: dto.name, description: dto.description ?? null });
  }

  /** A reserved status is never changed, whatever runs beside it (one conditional UPDATE). */
  async update(id: number, dto: StatusDto): Promise<Status> {
    const status = await this.statuses.changeUnless(RESERVED_STATUSES, id, {
      name: dto.name,
      description: dto.description ?? null,
    });
    return status ?? this.refuse(id, 'modify', 'no status found with this id');
  }

  /** A status still given to a server is refused by the foreign key (400). */
  async remove(id: number): Promise<void> {
    if (!(await this.statuses.removeUnless(RESERVED_STATUSES, id))) {
      await this.refuse(id, 'delete', 'no status with that key found');
    }
  }

  /** Why a conditional write touched nothing: the status is reserved (403) or does not exist (404). */
  private async refuse(id: number, action: 'modify' | 'delete', notFound: string): Promise<never> {
    const status = await this.statuses.byId(id);
    if (status) {
      throw new ForbiddenException(`cannot ${action} ${status.name} status`);
    }
    throw new NotFoundException(notFound);
  }
}
