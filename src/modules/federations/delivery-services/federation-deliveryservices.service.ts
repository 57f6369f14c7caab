import type { DeferredBody } from 'src/common/validation/valid-body';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { type Assignment } from 'src/modules/federations/assignment.body';
import { insertFederationLinks, lockFederation } from 'src/modules/federations/federation-store';
import { UnitOfWork } from 'src/common/database/unit-of-work';

export interface FederationDeliveryServiceRow {
  id: number;
  cdn: string;
  type: string;
  xmlId: string;
}

/** Delivery services assigned to a federation (docs/original-behaviour.md#federation-deliveryservices). */
@Injectable()
export class FederationDeliveryServicesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** An unknown federation simply has none (200 `[]`, as the original). */
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

  /**
   * One transaction, set-based: the federation is checked first (404 `federation <id> not found`),
   * then the body; `replace` replaces every existing assignment (and needs at least one delivery
   * service); without it an existing assignment fails the whole request (400 from the unique
   * index) and an unknown delivery service answers 404 `deliveryservice not found`.
   */
  assign(federationId: number, body: DeferredBody<Assignment>): Promise<Assignment> {
    return this.unitOfWork.run(async (manager) => {
      await lockFederation(manager, federationId);
      const assignment = await body.read();
      const ids = assignment.ids ?? [];
      if (assignment.replace) {
        if (ids.length === 0) {
          throw new BadRequestException('A federation must have at least one delivery service assigned');
        }
        await manager.query('DELETE FROM federation_deliveryservice WHERE federation = ?', [federationId]);
      }
      await insertFederationLinks(
        manager,
        'federation_deliveryservice',
        ['federation', 'deliveryservice'],
        federationId,
        ids,
      );
      return assignment;
    });
  }

  /**
   * Removes one assignment, never the last one. The federation row is locked so that two
   * concurrent removals cannot together leave it with none.
   */
  async remove(federationId: number, dsId: number): Promise<void> {
    const notFound = () => new NotFoundException(`federation ${federationId} not found`);
    await this.unitOfWork.run(async (manager) => {
      await lockFederation(manager, federationId);
      const rows = await manager.query<{ id: number | string }[]>(
        'SELECT deliveryservice AS id FROM federation_deliveryservice WHERE federation = ?',
        [federationId],
      );
      const assigned = rows.map((row) => Number(row.id));
      if (assigned.length === 0) {
        throw notFound();
      }
      if (assigned.length < 2) {
        throw new BadRequestException('a federation must have at least one delivery service assigned');
      }
      if (!assigned.includes(dsId)) {
        throw new BadRequestException(
          `delivery service ${dsId} is not associated with federation ${federationId}`,
        );
      }
      await manager.query(
        'DELETE FROM federation_deliveryservice WHERE federation = ? AND deliveryservice = ?',
        [federationId, dsId],
      );
    });
  }
}
