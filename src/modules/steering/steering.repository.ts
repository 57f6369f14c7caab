import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, Repository, type SelectQueryBuilder } from 'typeorm';
import { insertRows } from 'src/common/database/insert-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import type { SteeringTargetRow } from './dto/steering-target.response';
import { SteeringTarget } from './steering-target.entity';

export interface TargetRow {
  steering_xml_id: string;
  target_id: number | string;
  target_xml_id: string;
  value: number | string;
  steering_type: string;
  ds_type: string;
}

export interface FilterRow {
  ds_id: number | string;
  xml_id: string;
  pattern: string;
}

/**
 * The steering_target table, and what GET /steering and the targets' rules read of delivery
 * services, their regexes and types: the only file of the module that runs SQL
 * (docs/architecture.md#data-access). Methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class SteeringRepository {
  constructor(
    @InjectRepository(SteeringTarget) private readonly targets: Repository<SteeringTarget>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Every steering target with its steering delivery service, target and types, by xmlIds. */
  steeringTargets(): Promise<TargetRow[]> {
    return this.dataSource.query<TargetRow[]>(
      'SELECT ds.xml_id AS steering_xml_id, t.id AS target_id, t.xml_id AS target_xml_id, st.value, ' +
        'tp.name AS steering_type, dt.name AS ds_type ' +
        'FROM steering_target st ' +
        'JOIN deliveryservice ds ON ds.id = st.deliveryservice ' +
        'JOIN deliveryservice t ON t.id = st.target ' +
        'JOIN type tp ON tp.id = st.type ' +
        'JOIN type dt ON dt.id = ds.type ' +
        'ORDER BY ds.xml_id, t.xml_id',
    );
  }

  /** The STEERING_REGEXP regexes of the delivery services that are steering targets. */
  steeringFilters(): Promise<FilterRow[]> {
    return this.dataSource.query<FilterRow[]>(
      'SELECT ds.id AS ds_id, ds.xml_id, r.pattern ' +
        'FROM deliveryservice ds ' +
        'JOIN deliveryservice_regex dsr ON dsr.deliveryservice = ds.id ' +
        'JOIN regex r ON r.id = dsr.regex ' +
        'JOIN type t ON t.id = r.type ' +
        "WHERE t.name = 'STEERING_REGEXP' AND ds.id IN (SELECT target FROM steering_target) " +
        'ORDER BY r.pattern, ds.type, dsr.set_number, dsr.id',
    );
  }

  /** The page of the targets of `dsId` (and `targetId` when given) within the tenant's reach. */
  list(dsId: number, query: ListQuery, tenantId: number, targetId?: number): Promise<SteeringTargetRow[]> {
    const qb = withinTenancy(
      this.rows(this.targets.manager).where('st.deliveryservice = :dsId', { dsId }),
      'ds.tenant_id',
      tenantId,
    );
    if (targetId !== undefined) {
      qb.andWhere('st.target = :targetId', { targetId });
    }
    return applyListQuery(qb, query).getRawMany<SteeringTargetRow>();
  }

  /** The type's table, or undefined when there is no such type (`null` for a type of no table). */
  async typeTable(
    manager: EntityManager,
    typeId: number,
  ): Promise<{ useInTable: string | null } | undefined> {
    const rows: { use_in_table: string | null }[] = await manager.query(
      'SELECT use_in_table FROM type WHERE id = ?',
      [typeId],
    );
    return rows.length === 0 ? undefined : { useInTable: rows[0].use_in_table };
  }

  /** The tenant of a delivery service, or undefined when there is none. */
  async deliveryServiceTenant(manager: EntityManager, dsId: number): Promise<number | undefined> {
    const rows: { tenant_id: number | string }[] = await manager.query(
      'SELECT ds.tenant_id FROM deliveryservice ds WHERE ds.id = ?',
      [dsId],
    );
    return rows.length === 0 ? undefined : Number(rows[0].tenant_id);
  }

  async add(
    manager: EntityManager,
    columns: Pick<SteeringTarget, 'deliveryServiceId' | 'targetId' | 'value' | 'typeId'>,
  ): Promise<void> {
    await insertRows(manager, SteeringTarget, columns);
  }

  /** Changes a target's value and type: whether there was one. */
  async change(
    manager: EntityManager,
    dsId: number,
    targetId: number,
    columns: Pick<SteeringTarget, 'value' | 'typeId'>,
  ): Promise<boolean> {
    const result = await manager.update(SteeringTarget, { deliveryServiceId: dsId, targetId }, columns);
    return Boolean(result.affected);
  }

  /** Deletes a target: whether there was one. */
  async remove(manager: EntityManager, dsId: number, targetId: number): Promise<boolean> {
    return Boolean((await manager.delete(SteeringTarget, { deliveryServiceId: dsId, targetId })).affected);
  }

  /** One target as the API answers it, or undefined. */
  one(manager: EntityManager, dsId: number, targetId: number): Promise<SteeringTargetRow | undefined> {
    return this.rows(manager)
      .where('st.deliveryservice = :dsId', { dsId })
      .andWhere('st.target = :targetId', { targetId })
      .getRawOne<SteeringTargetRow>();
  }

  /** The original's select: the target joined with both delivery services' xmlIds and its type. */
  private rows(manager: EntityManager): SelectQueryBuilder<SteeringTarget> {
    return manager
      .createQueryBuilder(SteeringTarget, 'st')
      .innerJoin('deliveryservice', 'ds', 'ds.id = st.deliveryservice')
      .innerJoin('deliveryservice', 'dst', 'dst.id = st.target')
      .innerJoin('type', 'tp', 'tp.id = st.type')
      .select('ds.xml_id', 'deliveryService')
      .addSelect('st.deliveryservice', 'deliveryServiceId')
      .addSelect('dst.xml_id', 'target')
      .addSelect('st.target', 'targetId')
      .addSelect('tp.name', 'type')
      .addSelect('st.type', 'typeId')
      .addSelect('st.value', 'value');
  }
}
