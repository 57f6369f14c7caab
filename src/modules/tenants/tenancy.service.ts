import { bindParameters } from 'src/common/database/typeorm-adapter';
import { ForbiddenException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';

export const NOT_AUTHORIZED_ON_TENANT = 'not authorized on this tenant';

/** A SQL condition and its parameters: `qb.andWhere(c.sql, c.parameters)`, or part of a raw statement. */
export interface SqlCondition {
  sql: string;
  parameters: ObjectLiteral;
}

/** The parameter every tenancy condition binds the user's tenant id to. */
const USER_TENANT_PARAM = 'tenancyUserTenantId';

/**
 * A subquery selecting the ids of the tenants within reach of the tenant bound to `:<param>`. Only
 * list specs whose filter value is the tenant id (`accessibleTo`) use it directly; everything else
 * asks for a condition below.
 */
export function reachableTenantIdsSql(param: string): string {
  return (
    `WITH RECURSIVE tenancy_up(id, parent_id, active) AS (` +
    `SELECT id, parent_id, active FROM tenant WHERE id = :${param} ` +
    `UNION SELECT t.id, t.parent_id, t.active FROM tenant t JOIN tenancy_up u ON t.id = u.parent_id), ` +
    `tenancy_down(id) AS (` +
    `SELECT id FROM tenant WHERE id = :${param} AND NOT EXISTS (SELECT 1 FROM tenancy_up WHERE active = 0) ` +
    `UNION SELECT t.id FROM tenant t JOIN tenancy_down d ON t.parent_id = d.id) ` +
    `SELECT id FROM tenancy_down`
  );
}

/**
 * `tenantColumn` (a column named in code, e.g. `ds.tenant_id`) holds a tenant within reach of the
 * user's tenant, or with `outside`, one out of reach.
 */
export function tenantCondition(tenantColumn: string, userTenantId: number, outside = false): SqlCondition {
  return {
    sql: `${tenantColumn} ${outside ? 'NOT IN' : 'IN'} (${reachableTenantIdsSql(USER_TENANT_PARAM)})`,
    parameters: { [USER_TENANT_PARAM]: userTenantId },
  };
}

/** Restricts a query to the rows whose `tenantColumn` is within the user's reach. */
export function withinTenancy<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  tenantColumn: string,
  userTenantId: number,
): SelectQueryBuilder<T> {
  const condition = tenantCondition(tenantColumn, userTenantId);
  return qb.andWhere(condition.sql, condition.parameters);
}

/**
 * Tenancy (docs/decisions.md#d13): a user reaches the tenants at and below their own tenant,
 * provided their tenant and all its ancestors are active. Both questions are answered by one SQL
 * statement (recursive CTEs, portable across MySQL 8 / MariaDB 10.2+ and SQLite); UNION rather than
 * UNION ALL makes the walk stop even on a corrupt, cyclic tree.
 */
@Injectable()
export class TenancyService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The ids of every tenant within reach of `userTenantId` (empty when the user's tenancy is inactive). */
  async reachableTenantIds(
    userTenantId: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number[]> {
    const [sql, params] = bindParameters(
      this.dataSource,
      reachableTenantIdsSql(USER_TENANT_PARAM),
      { [USER_TENANT_PARAM]: userTenantId },
      {},
    );
    const rows: { id: number | string }[] = await manager.query(sql, params);
    return rows.map((r) => Number(r.id));
  }

  /** Whether `tenantId` is within reach of `userTenantId`. */
  async isWithinReach(
    userTenantId: number,
    tenantId: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const [sql, params] = bindParameters(
      this.dataSource,
      `SELECT 1 AS reachable FROM (${reachableTenantIdsSql(USER_TENANT_PARAM)}) reach WHERE reach.id = :tenantId`,
      { [USER_TENANT_PARAM]: userTenantId, tenantId },
      {},
    );
    const rows: unknown[] = await manager.query(sql, params);
    return rows.length > 0;
  }

  /** Whether every one of `tenantIds` is within reach of `userTenantId`: one statement. */
  async areAllWithinReach(
    userTenantId: number,
    tenantIds: number[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const ids = [...new Set(tenantIds)];
    if (ids.length === 1) {
      return this.isWithinReach(userTenantId, ids[0], manager);
    }
    const [sql, params] = bindParameters(
      this.dataSource,
      `SELECT reach.id AS id FROM (${reachableTenantIdsSql(USER_TENANT_PARAM)}) reach WHERE reach.id IN (:...ids)`,
      { [USER_TENANT_PARAM]: userTenantId, ids },
      {},
    );
    // The walk's UNION answers each tenant once.
    const rows: unknown[] = await manager.query(sql, params);
    return rows.length === ids.length;
  }

  /** Throws the original's 403 unless every one of `tenantIds` is within reach of the user's tenant. */
  async assertAllWithinReach(
    userTenantId: number,
    tenantIds: number[],
    manager?: EntityManager,
  ): Promise<void> {
    if (!(await this.areAllWithinReach(userTenantId, tenantIds, manager))) {
      throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
    }
  }

  /** Throws the original's 403 unless `tenantId` is within reach of the user's tenant. */
  async assertWithinReach(userTenantId: number, tenantId: number, manager?: EntityManager): Promise<void> {
    if (!(await this.isWithinReach(userTenantId, tenantId, manager))) {
      throw new ForbiddenException(NOT_AUTHORIZED_ON_TENANT);
    }
  }
}
