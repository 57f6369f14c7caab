import type { DeferredBody } from 'src/common/validation/valid-body';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import { type Assignment } from 'src/modules/federations/assignment.dto';
import { insertFederationLinks, lockFederation } from 'src/modules/federations/federation-links';
import { FederationsRepository } from 'src/modules/federations/federations.repository';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import {
  FEDERATION_DELIVERY_SERVICES,
  type FederationDeliveryServiceRow,
  FederationDeliveryServicesRepository,
} from './federation-deliveryservices.repository';

/** Delivery services assigned to a federation (docs/original-behaviour.md#federation-deliveryservices). */
@Injectable()
export class FederationDeliveryServicesService {
  constructor(
    private readonly assignments: FederationDeliveryServicesRepository,
    private readonly federations: FederationsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** An unknown federation simply has none (200 `[]`, as the original). */
  list(federationId: number, query: ListQuery): Promise<FederationDeliveryServiceRow[]> {
    return this.assignments.list(federationId, query);
  }

  /**
   * One transaction, set-based: the federation is checked first (404 `federation <id> not found`),
   * then the body; `replace` replaces every existing assignment (and needs at least one delivery
   * service); without it an existing assignment fails the whole request (400 from the unique
   * index) and an unknown delivery service answers 404 `deliveryservice not found`.
   */
  assign(federationId: number, body: DeferredBody<Assignment>): Promise<Assignment> {
    return this.unitOfWork.run(async (manager) => {
      await lockFederation(this.federations, manager, federationId);
      const assignment = await body.read();
      const ids = assignment.ids ?? [];
      if (assignment.replace) {
        if (ids.length === 0) {
          throw new BadRequestException('A federation must have at least one delivery service assigned');
        }
        await this.assignments.removeAll(manager, federationId);
      }
      await insertFederationLinks(this.federations, manager, FEDERATION_DELIVERY_SERVICES, federationId, ids);
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
      await lockFederation(this.federations, manager, federationId);
      const assigned = await this.assignments.assigned(manager, federationId);
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
      await this.assignments.remove(manager, federationId, dsId);
    });
  }
}
