import type { DeferredBody } from 'src/common/validation/valid-body';
import { Injectable, NotFoundException } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import { type Assignment } from 'src/modules/federations/assignment.dto';
import type { Federation } from 'src/modules/federations/federation.entity';
import { insertFederationLinks, lockFederation } from 'src/modules/federations/federation-links';
import { FederationsRepository } from 'src/modules/federations/federations.repository';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import {
  FEDERATION_USERS,
  type FederationUserRow,
  FederationUsersRepository,
} from './federation-users.repository';

/** Users assigned to a federation (`federations/{id}/users`). */
@Injectable()
export class FederationUsersService {
  constructor(
    private readonly users: FederationUsersRepository,
    private readonly federations: FederationsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async list(federationId: number, query: ListQuery): Promise<FederationUserRow[]> {
    const federation = await this.federations.federation(federationId);
    if (!federation) {
      throw new NotFoundException(`federation ${federationId} not found`);
    }
    return this.users.list(federationId, query);
  }

  /**
   * Assigns users in one transaction: the federation is checked (404) before the body is read, as
   * the original does; `replace` removes the other assignments first. An assignment that exists
   * answers 400, an unknown user 404 `tm_user not found`, and nothing is written.
   */
  assign(
    federationId: number,
    body: DeferredBody<Assignment>,
  ): Promise<{ assignment: Assignment; federation: Federation }> {
    return this.unitOfWork.run(async (manager) => {
      const federation = await lockFederation(this.federations, manager, federationId);
      const assignment = await body.read();
      if (assignment.replace) {
        await this.users.removeAll(manager, federationId);
      }
      await insertFederationLinks(
        this.federations,
        manager,
        FEDERATION_USERS,
        federationId,
        assignment.ids ?? [],
      );
      return { assignment, federation };
    });
  }

  async remove(federationId: number, userId: number): Promise<void> {
    if (!(await this.users.remove(federationId, userId))) {
      throw new NotFoundException('no federation users with that key found');
    }
  }
}
