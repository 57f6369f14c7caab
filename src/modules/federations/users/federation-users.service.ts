import type { DeferredBody } from 'src/common/validation/valid-body';
import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { type Assignment } from 'src/modules/federations/assignment.body';
import { Federation } from 'src/modules/federations/federation.entity';
import { insertFederationLinks, lockFederation } from 'src/modules/federations/federation-store';
import { UnitOfWork } from 'src/common/database/unit-of-work';

export interface FederationUserRow {
  id: number;
  username: string;
  fullName: string | null;
  company: string | null;
  email: string | null;
  role: string;
}

/** Users assigned to a federation (`federations/{id}/users`). */
@Injectable()
export class FederationUsersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async list(federationId: number, query: ListQuery): Promise<FederationUserRow[]> {
    const federation = await this.dataSource.manager.findOneBy(Federation, { id: federationId });
    if (!federation) {
      throw new NotFoundException(`federation ${federationId} not found`);
    }
    const qb = this.dataSource
      .createQueryBuilder()
      .select('u.id', 'id')
      .addSelect('u.username', 'username')
      .addSelect('u.full_name', 'fullName')
      .addSelect('u.company', 'company')
      .addSelect('u.email', 'email')
      .addSelect('r.name', 'role')
      .from('federation_tmuser', 'fu')
      .innerJoin('tm_user', 'u', 'u.id = fu.tm_user')
      .innerJoin('role', 'r', 'r.id = u.role')
      .where('fu.federation = :federationId', { federationId });
    const rows = await applyListQuery(qb, query).getRawMany<FederationUserRow>();
    return rows.map((row) => ({ ...row, id: Number(row.id) }));
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
      const federation = await lockFederation(manager, federationId);
      const assignment = await body.read();
      if (assignment.replace) {
        await manager.query('DELETE FROM federation_tmuser WHERE federation = ?', [federationId]);
      }
      await insertFederationLinks(
        manager,
        'federation_tmuser',
        ['federation', 'tm_user'],
        federationId,
        assignment.ids ?? [],
      );
      return { assignment, federation };
    });
  }

  async remove(federationId: number, userId: number): Promise<void> {
    const result = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from('federation_tmuser')
      .where('federation = :federationId AND tm_user = :userId', { federationId, userId })
      .execute();
    if (!result.affected) {
      throw new NotFoundException('no federation users with that key found');
    }
  }
}
