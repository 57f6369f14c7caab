import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { LinkTable } from 'src/modules/federations/federations.repository';

export interface FederationUserRow {
  id: number;
  username: string;
  fullName: string | null;
  company: string | null;
  email: string | null;
  role: string;
}

/** The link table of federations and users. */
export const FEDERATION_USERS: LinkTable = { table: 'federation_tmuser', columns: ['federation', 'tm_user'] };

/**
 * The federation_tmuser table, with what its list shows of users and roles: the only file of the
 * folder that runs SQL (docs/architecture.md#data-access). Methods taking a `manager` run in the
 * caller's transaction.
 */
@Injectable()
export class FederationUsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The page of the users assigned to the federation. */
  async list(federationId: number, query: ListQuery): Promise<FederationUserRow[]> {
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

  /** Removes every user assignment of the federation. */
  async removeAll(manager: EntityManager, federationId: number): Promise<void> {
    await manager.query('DELETE FROM federation_tmuser WHERE federation = ?', [federationId]);
  }

  /** Removes one assignment: whether there was one. */
  async remove(federationId: number, userId: number): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from('federation_tmuser')
      .where('federation = :federationId AND tm_user = :userId', { federationId, userId })
      .execute();
    return Boolean(result.affected);
  }
}
