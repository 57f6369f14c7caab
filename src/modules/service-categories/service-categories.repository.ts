import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { insertRows } from 'src/common/database/insert-rows';
import { writeLock } from 'src/common/database/locks';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { ServiceCategory } from './service-category.entity';

/** The service_category table: the only file of the module that runs SQL (docs/architecture.md#data-access). */
@Injectable()
export class ServiceCategoriesRepository {
  constructor(
    @InjectRepository(ServiceCategory) private readonly categories: Repository<ServiceCategory>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  list(query: ListQuery): Promise<ServiceCategory[]> {
    return getPlainMany(applyListQuery(this.categories.createQueryBuilder('sc'), query));
  }

  byName(name: string): Promise<ServiceCategory> {
    return this.categories.findOneByOrFail({ name });
  }

  /** The category, read with a write lock (before changing or deleting it). */
  lockedByName(name: string): Promise<ServiceCategory | null> {
    return this.categories.findOne({ where: { name }, lock: writeLock(this.dataSource) });
  }

  async add(name: string): Promise<void> {
    await insertRows(this.categories.manager, this.categories.target, { name });
  }

  async rename(current: string, name: string): Promise<void> {
    await this.categories.update({ name: current }, { name });
  }

  /** How many delivery services name the category. */
  async assignedCount(name: string): Promise<number> {
    const [{ n }] = await this.categories.query<{ n: number | string }[]>(
      'SELECT COUNT(*) AS n FROM deliveryservice WHERE service_category = ?',
      [name],
    );
    return Number(n);
  }

  async remove(name: string): Promise<void> {
    await this.categories.delete({ name });
  }
}
