import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { LinkTable } from 'src/modules/federations/federations.repository';

export interface FederationDeliveryServiceRow {
  id: number;
  cdn: string;
  type: string;
  xmlId: string;
}

/** The link table of federations and delivery services. */
export const FEDERATION_DELIVERY_SERVICES: LinkTable = {
  table: 'federation_deliveryservice',
  columns: ['federation', 'deliveryservice'],
};

/**
 * The federation_deliveryservice table, with what its list shows of delivery services: the only
 * file of the folder that runs SQL (docs/architecture.md#data-access). Methods taking a `manager`
 * run in the caller's transaction.
 */
@Injectable()
export class FederationDeliveryServicesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The page of the delivery services assigned to the federation. */
  async list(federationId: number, query: ListQuery): Promise<FederationDeliveryServiceRow[]> {
    const qb = this.dataSource
      .createQueryBuilder()
      .select('ds.id', 'id')
      .addSelect('c.name', 'cdn')
      .addSelect('t.name', 'type')
      .addSelect('ds.xml_id', 'xmlId')
      .from('federation_deliveryservice', 'fds')
      .innerJoin('deliveryservice', 'ds', 'ds.id = fds.deliveryservice')
      .innerJoin('cdn', 'c', 'c.id = ds.cdn_id')
      .innerJoin('type', 't', 't.id = ds.type')
      .where('fds.federation = :federationId', { federationId });
    const rows = await applyListQuery(qb, query).getRawMany<FederationDeliveryServiceRow>();
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  /** The ids of the delivery services assigned to the federation. */
  async assigned(manager: EntityManager, federationId: number): Promise<number[]> {
    const rows = await manager.query<{ id: number | string }[]>(
      'SELECT deliveryservice AS id FROM federation_deliveryservice WHERE federation = ?',
      [federationId],
    );
    return rows.map((row) => Number(row.id));
  }

  /** Removes every delivery service assignment of the federation. */
  async removeAll(manager: EntityManager, federationId: number): Promise<void> {
    await manager.query('DELETE FROM federation_deliveryservice WHERE federation = ?', [federationId]);
  }

  /** Removes one assignment. */
  async remove(manager: EntityManager, federationId: number, dsId: number): Promise<void> {
    await manager.query(
      'DELETE FROM federation_deliveryservice WHERE federation = ? AND deliveryservice = ?',
      [federationId, dsId],
    );
  }
}
