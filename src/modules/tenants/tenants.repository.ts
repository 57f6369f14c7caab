import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { bindParameters } from 'src/common/database/typeorm-adapter';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { TenantWithParent } from './dto/tenant.response';
import { Tenant } from './tenant.entity';

/*
 * The tenancy conditions (docs/decisions.md#d13): SQL over the tenant table, which this module owns,
 * so they live beside the tenant table's other statements; the modules whose lists are under tenancy
 * import them from here into their repositories (docs/decisions.md#d191).
 */

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
 * The tenant table and the tenancy walks over it: the only file of the module that runs SQL
 * (docs/architecture.md#data-access). Methods taking a `manager` run in the caller's transaction;
 * where it is optional, outside one they run on the data source's.
 */
@Injectable()
export class TenantsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The page of tenants within reach of `userTenantId` a list query asks for, parents joined. */
  list(query: ListQuery, userTenantId: number): Promise<TenantWithParent[]> {
    const qb = withinTenancy(this.withParent(this.dataSource.manager), 'tenant.id', userTenantId);
    return applyListQuery(qb, query).getMany();
  }

  /** The tenant with its parent joined; it must exist. */
  withParentById(id: number): Promise<TenantWithParent> {
    return this.withParent(this.dataSource.manager).where('tenant.id = :id', { id }).getOneOrFail();
  }

  /** The tenant, or null. */
  byId(id: number, manager: EntityManager = this.dataSource.manager): Promise<Tenant | null> {
    return manager.findOneBy(Tenant, { id });
  }

  /** Adds a tenant: its id. */
  add(manager: EntityManager, columns: Partial<Tenant>): Promise<number> {
    return insertRow(manager, Tenant, columns);
  }

  async change(manager: EntityManager, id: number, columns: Partial<Tenant>): Promise<void> {
    await manager.update(Tenant, { id }, columns);
  }

  /** Deletes a tenant (the restrict foreign keys of what uses it throw). */
  async remove(id: number): Promise<void> {
    await this.dataSource.manager.delete(Tenant, { id });
  }

  /** Whether `candidate` is `id` or below it. */
  async isSelfOrDescendant(manager: EntityManager, id: number, candidate: number): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      'WITH RECURSIVE below(id) AS (SELECT id FROM tenant WHERE id = ? ' +
        'UNION SELECT t.id FROM tenant t JOIN below b ON t.parent_id = b.id) ' +
        'SELECT 1 AS found FROM below WHERE id = ?',
      [id, candidate],
    );
    return rows.length > 0;
  }

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

  /** How many of the distinct `ids` are within reach of `userTenantId`: one statement. */
  async reachableCount(
    userTenantId: number,
    ids: number[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number> {
    const [sql, params] = bindParameters(
      this.dataSource,
      `SELECT reach.id AS id FROM (${reachableTenantIdsSql(USER_TENANT_PARAM)}) reach WHERE reach.id IN (:...ids)`,
      { [USER_TENANT_PARAM]: userTenantId, ids },
      {},
    );
    // The walk's UNION answers each tenant once.
    const rows: unknown[] = await manager.query(sql, params);
    return rows.length;
  }

  private withParent(manager: EntityManager) {
    return manager
      .createQueryBuilder(Tenant, 'tenant')
      .leftJoinAndMapOne('tenant.parent', Tenant, 'parent', 'parent.id = tenant.parent_id');
  }
}
