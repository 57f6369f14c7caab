import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { translateDbErrors, type DbFailure } from 'src/common/database/db-error';
import type { ListQuery } from 'src/common/list-query/list-query';
import { ServiceCategoriesRepository } from './service-categories.repository';
import type { ServiceCategory } from './service-category.entity';

/**
 * How a version's handlers word and check a service category's writes (the controller chooses):
 * 3.x/4.x are the original's generic handlers, 5.0 has its own.
 */
export interface ServiceCategoryRules {
  /** The 400 of a taken name. */
  duplicateName(name: string): string;
  /** The error of renaming a category that does not exist. */
  missingOnRename(current: string): Error;
  /** The 404's text of deleting a category that does not exist. */
  missingOnDelete(name: string): string;
  /** Whether a category some delivery service names is refused with their count (else by the foreign key). */
  countsAssigned: boolean;
}

/** A taken name, in the rules' words. */
const duplicateName =
  (name: string, rules: ServiceCategoryRules) =>
  (failure: DbFailure): Error | undefined =>
    failure.kind === 'unique' && (failure.table === 'service_category' || failure.table === 'resource')
      ? new BadRequestException(rules.duplicateName(name))
      : undefined;

/**
 * Service categories (docs/original-behaviour.md#service-categories): named by their name, which is
 * their key; renamed and deleted by it.
 */
@Injectable()
export class ServiceCategoriesService {
  constructor(private readonly categories: ServiceCategoriesRepository) {}

  list(query: ListQuery): Promise<ServiceCategory[]> {
    return this.categories.list(query);
  }

  async create(name: string, rules: ServiceCategoryRules): Promise<ServiceCategory> {
    await translateDbErrors(() => this.categories.add(name), duplicateName(name, rules));
    return this.categories.byName(name);
  }

  /** Renames `current` to `name`: missing → the rules' error, a taken name → 400. */
  async rename(current: string, name: string, rules: ServiceCategoryRules): Promise<ServiceCategory> {
    if (!(await this.categories.lockedByName(current))) {
      throw rules.missingOnRename(current);
    }
    await translateDbErrors(() => this.categories.rename(current, name), duplicateName(name, rules));
    return this.categories.byName(name);
  }

  /**
   * Deletes by name. A category some delivery service names is refused (with their count, or by the
   * delivery services' foreign key, `cannot delete service_category because it is being used by a
   * deliveryservice`).
   */
  async remove(name: string, rules: ServiceCategoryRules): Promise<void> {
    if (!(await this.categories.lockedByName(name))) {
      throw new NotFoundException(rules.missingOnDelete(name));
    }
    if (rules.countsAssigned) {
      const assigned = await this.categories.assignedCount(name);
      if (assigned > 0) {
        throw new BadRequestException(
          `can not delete a service category with ${assigned} assigned Delivery Service(s)`,
        );
      }
    }
    // The delivery services' foreign key refuses a category in use.
    await this.categories.remove(name);
  }
}
