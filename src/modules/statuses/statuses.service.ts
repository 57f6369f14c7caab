import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { Status } from './status.entity';

@Injectable()
export class StatusesService {
  constructor(@InjectRepository(Status) private readonly statuses: Repository<Status>) {}

  list(query: ListQuery): Promise<Status[]> {
    return applyListQuery(this.statuses.createQueryBuilder('status'), query).getMany();
  }
}
