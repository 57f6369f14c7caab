import { insertRows } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { translateDbErrors, type DbFailure } from 'src/common/database/db-error';
import { writeLock } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { ApiVersion } from 'src/common/versioning/api-version';
import { ServiceCategory } from './service-category.entity';

/** A taken name, as the original words it: the generic 3.x/4.x text, or the 5.0 handler's own. */
const duplicateName =
  (name: string, version: ApiVersion) =>
  (failure: DbFailure): Error | undefined =>
    failure.kind === 'unique' && (failure.table === 'service_category' || failure.table === 'resource')
      ? new BadRequestException(
          version.atLeast('5.0')
            ? `service category name '${name}' already exists.`
            : `service_category name '${name}' already exists.`,
        )
      : undefined;

/**
 * Service categories (docs/original-behaviour.md#service-categories): named by their name, which is
 * their key; renamed and deleted by it. The 3.x/4.x handlers are the original's generic ones, the 5.0
 * handlers its own, with their own texts.
 */
@Injectable()
export class ServiceCategoriesService {
  constructor(
    @InjectRepository(ServiceCategory) private readonly categories: Repository<ServiceCategory>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  list(query: ListQuery): Promise<ServiceCategory[]> {
    return getPlainMany(applyListQuery(this.categories.createQueryBuilder('sc'), query));
  }

  async create(name: string, version: ApiVersion): Promise<ServiceCategory> {
    await translateDbErrors(
      () => insertRows(this.categories.manager, this.categories.target, { name }),
      duplicateName(name, version),
    );
    return this.categories.findOneByOrFail({ name });
  }

  /** Renames `current` to `name`: missing → 400 (3.x/4.x) or 404 (5.0), a taken name → 400. */
  async rename(current: string, name: string, version: ApiVersion): Promise<ServiceCategory> {
    const row = await this.categories.findOne({ where: { name: current }, lock: writeLock(this.dataSource) });
    if (!row) {
      throw version.atLeast('5.0')
        ? new NotFoundException(`service category with name: ${current} not found`)
        : new BadRequestException(`no service category found with name ${current}`);
    }
    await translateDbErrors(
      () => this.categories.update({ name: current }, { name }),
      duplicateName(name, version),
    );
    return this.categories.findOneByOrFail({ name });
  }

  /**
   * Deletes by name. A category some delivery service names is refused (5.0: with their count; 3.x
   * and 4.x: by the delivery services' foreign key, `cannot delete service_category because it is
   * being used by a deliveryservice`).
   */
  async remove(name: string, version: ApiVersion): Promise<void> {
    const row = await this.categories.findOne({ where: { name }, lock: writeLock(this.dataSource) });
    if (!row) {
      throw new NotFoundException(
        version.atLeast('5.0')
          ? `no service category exists for name: ${name}`
          : 'no serviceCategory with that key found',
      );
    }
    if (version.atLeast('5.0')) {
      const [{ n }] = await this.categories.query<{ n: number | string }[]>(
        'SELECT COUNT(*) AS n FROM deliveryservice WHERE service_category = ?',
        [name],
      );
      const assigned = Number(n);
      if (assigned > 0) {
        throw new BadRequestException(
          `can not delete a service category with ${assigned} assigned Delivery Service(s)`,
        );
      }
    }
    // The delivery services' foreign key refuses a category in use (3.x/4.x answer its text).
    await this.categories.delete({ name });
  }
}
