import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import { Federation } from 'src/modules/federations/federation.entity';
import { tenantCondition, withinTenancy } from 'src/modules/tenants/tenants.repository';
import type { CdnFederationRow } from './cdn-federation.response';

interface RawCdnFederationRow extends Omit<CdnFederationRow, 'lastUpdated'> {
  lastUpdated: Date | string;
}

/** The columns a federation is written with. */
export type FederationColumns = Pick<Federation, 'cname' | 'ttl' | 'description'>;

/**
 * The federation table as `cdns/{name}/federations` writes it, and what its list and rules read of
 * CDNs and delivery services: the only file of the folder that runs SQL
 * (docs/architecture.md#data-access). Methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class CdnFederationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The page of (federation, delivery service of the CDN) entries within the tenant's reach. */
  async list(cdnId: number, query: ListQuery, tenantId: number): Promise<CdnFederationRow[]> {
    const qb = this.dataSource
      .createQueryBuilder()
      .select('federation.id', 'id')
      .addSelect('federation.cname', 'cname')
      .addSelect('federation.ttl', 'ttl')
      .addSelect('federation.description', 'description')
      .addSelect('federation.last_updated', 'lastUpdated')
      .addSelect('ds.id', 'dsId')
      .addSelect('ds.xml_id', 'xmlId')
      .from('federation', 'federation')
      .innerJoin('federation_deliveryservice', 'fd', 'fd.federation = federation.id')
      .innerJoin('deliveryservice', 'ds', 'ds.id = fd.deliveryservice')
      .where('ds.cdn_id = :cdnId', { cdnId });
    const rows = await applyListQuery(withinTenancy(qb, 'ds.tenant_id', tenantId), query)
      .addOrderBy('ds.id', 'ASC')
      .getRawMany<RawCdnFederationRow>();
    return rows.map((row) => ({
      id: Number(row.id),
      cname: row.cname,
      ttl: Number(row.ttl),
      description: row.description,
      lastUpdated: toDate(row.lastUpdated),
      dsId: Number(row.dsId),
      xmlId: row.xmlId,
    }));
  }

  /** The id of the CDN of that name, or undefined. */
  async cdnId(
    cdnName: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<number | undefined> {
    const rows = await manager.query<{ id: number | string }[]>('SELECT id FROM cdn WHERE name = ?', [
      cdnName,
    ]);
    return rows.length === 0 ? undefined : Number(rows[0].id);
  }

  /** Whether the federation is assigned to a delivery service outside the tenant's reach. */
  async assignedOutside(manager: EntityManager, id: number, tenantId: number): Promise<boolean> {
    const outsideReach = tenantCondition('ds.tenant_id', tenantId, true);
    const outside = await manager
      .createQueryBuilder()
      .select('1', 'outside')
      .from('federation_deliveryservice', 'fd')
      .innerJoin('deliveryservice', 'ds', 'ds.id = fd.deliveryservice')
      .where('fd.federation = :id', { id })
      .andWhere(outsideReach.sql, outsideReach.parameters)
      .limit(1)
      .getRawMany();
    return outside.length > 0;
  }

  /** Adds a federation and answers it as stored. */
  async add(manager: EntityManager, columns: FederationColumns): Promise<Federation> {
    const id = await insertRow(manager, Federation, columns);
    return manager.findOneByOrFail(Federation, { id });
  }

  /** Changes a federation: its row as stored afterwards, or undefined when there is no such federation. */
  async change(
    manager: EntityManager,
    id: number,
    columns: FederationColumns,
  ): Promise<Federation | undefined> {
    const result = await manager.update(Federation, { id }, columns);
    return result.affected ? manager.findOneByOrFail(Federation, { id }) : undefined;
  }

  /** Deletes a federation (its assignments and resolver links by cascade): whether there was one. */
  async remove(manager: EntityManager, id: number): Promise<boolean> {
    return Boolean((await manager.delete(Federation, { id })).affected);
  }
}
