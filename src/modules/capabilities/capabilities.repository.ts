import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { ApiCapability, Capability } from './capability.entity';

/** The `capability` and `api_capability` tables: the only file of the module that runs SQL. */
@Injectable()
export class CapabilitiesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  capabilities(query: ListQuery): Promise<Capability[]> {
    return getPlainMany(
      applyListQuery(this.dataSource.getRepository(Capability).createQueryBuilder('c'), query),
    );
  }

  apiCapabilities(query: ListQuery): Promise<ApiCapability[]> {
    return applyListQuery(
      this.dataSource.getRepository(ApiCapability).createQueryBuilder('ac'),
      query,
    ).getMany();
  }
}
