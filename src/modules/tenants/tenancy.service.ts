import { ForbiddenException, Injectable } from '@nestjs/common';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import { TenantsRepository } from './tenants.repository';

export const NOT_AUTHORIZED_ON_TENANT = 'not authorized on this tenant';

/**
 * Tenancy (docs/decisions.md#d13): a user reaches the tenants at and below their own tenant,
 * provided their tenant and all its ancestors are active. Both questions are answered by one SQL
 * statement (recursive CTEs, portable across MySQL 8 / MariaDB 10.2+ and SQLite); UNION rather than
 * UNION ALL makes the walk stop even on a corrupt, cyclic tree.
 */
@Injectable()
export class TenancyService {
  constructor(private readonly tenants: TenantsRepository) {}

  /** The ids of every tenant within reach of `userTenantId` (empty when the user's tenancy is inactive). */
  reachableTenantIds(userTenantId: number, manager?: TransactionManager): Promise<number[]> {
    return this.tenants.reachableTenantIds(userTenantId, manager);
  }

  /** Whether `tenantId` is within reach of `userTenantId`. */
  isWithinReach(userTenantId: number, tenantId: number, manager?: TransactionManager): Promise<boolean> {
    return this.tenants.isWithinReach(userTenantId, tenantId, manager);
  }

  /** Whether every one of `tenantIds` is within reach of `userTenantId`: one statement. */
  async areAllWithinReach(
    userTenantId: number,
    tenantIds: number[],
    manager?: TransactionManager,
  ): Promise<boolean> {
    const ids = [...new Set(tenantIds)];
    if (ids.length === 1) {
      return this.isWithinReach(userTenantId, ids[0], manager);
    }
    return (await this.tenants.reachableCount(userTenantId, ids, manager)) === ids.length;
  }

  /** Throws the original's 403 unless every one of `tenantIds` is within reach of the user's tenant. */
  async assertAllWithinReach(
    userTenantId: number,
    tenantIds: number[],
    manager?: TransactionManager,
  ): Promise<void> {
    if (!(await this.areAllWithinReach(userTenantId, tenantIds, manager))) {
      throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
    }
  }

  /** Throws the original's 403 unless `tenantId` is within reach of the user's tenant. */
  async assertWithinReach(
    userTenantId: number,
    tenantId: number,
    manager?: TransactionManager,
  ): Promise<void> {
    if (!(await this.isWithinReach(userTenantId, tenantId, manager))) {
      throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
    }
  }
}
