import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { lockingClause } from 'src/common/database/locks';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import type { LinkTable } from 'src/modules/federations/federations.repository';

export interface FederationResolverRow {
  id: number;
  ipAddress: string;
  type: string;
  lastUpdated: Date;
}

interface RawResolverRow extends Omit<FederationResolverRow, 'lastUpdated'> {
  lastUpdated: Date | string;
}

/** The link table of federations and resolvers. */
export const FEDERATION_RESOLVERS: LinkTable = {
  table: 'federation_federation_resolver',
  columns: ['federation', 'federation_resolver'],
};

/**
 * The federation_resolver table and its links to federations: the only file of the folder that
 * runs SQL (docs/architecture.md#data-access). Methods taking a `manager` run in the caller's
 * transaction.
 */
@Injectable()
export class FederationResolversRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The page of resolvers a list query asks for. */
  async list(query: ListQuery): Promise<FederationResolverRow[]> {
    const qb = this.dataSource
      .createQueryBuilder()
      .select('fr.id', 'id')
      .addSelect('fr.ip_address', 'ipAddress')
      .addSelect('fr.last_updated', 'lastUpdated')
      .addSelect('t.name', 'type')
      .from('federation_resolver', 'fr')
      .innerJoin('type', 't', 't.id = fr.type');
    const rows = await applyListQuery(qb, query).getRawMany<RawResolverRow>();
    return rows.map((row) => ({ ...row, id: Number(row.id), lastUpdated: toDate(row.lastUpdated) }));
  }

  /**
   * Adds a resolver of that address when `typeId` is the type named `typeName` (one INSERT …
   * SELECT: nothing is written otherwise); a duplicate address fails on the unique index.
   */
  async add(manager: EntityManager, ipAddress: string, typeId: number, typeName: string): Promise<void> {
    await manager.query(
      'INSERT INTO federation_resolver (ip_address, type) SELECT ?, t.id FROM type t WHERE t.id = ? AND t.name = ?',
      [ipAddress, typeId, typeName],
    );
  }

  /** The resolver of the address, or undefined. */
  async byAddress(
    manager: EntityManager,
    ipAddress: string,
  ): Promise<{ id: number; lastUpdated: Date } | undefined> {
    const [row] = await manager.query<{ id: number | string; lastUpdated: Date | string }[]>(
      'SELECT id, last_updated AS lastUpdated FROM federation_resolver WHERE ip_address = ?',
      [ipAddress],
    );
    return row ? { id: Number(row.id), lastUpdated: toDate(row.lastUpdated) } : undefined;
  }

  /** Whether there is a type of that id. */
  async typeExists(manager: EntityManager, typeId: number): Promise<boolean> {
    const types = await manager.query<unknown[]>('SELECT 1 FROM type WHERE id = ?', [typeId]);
    return types.length > 0;
  }

  /** The resolver with its type's name, locked; undefined when there is none. */
  async lockedById(
    manager: EntityManager,
    id: number,
  ): Promise<Omit<FederationResolverRow, 'lastUpdated'> | undefined> {
    const lock = lockingClause(this.dataSource, 'write');
    const [row] = await manager.query<{ id: number | string; ipAddress: string; type: string }[]>(
      'SELECT fr.id AS id, fr.ip_address AS ipAddress, t.name AS type FROM federation_resolver fr ' +
        `JOIN type t ON t.id = fr.type WHERE fr.id = ?${lock}`,
      [id],
    );
    return row ? { id: Number(row.id), ipAddress: row.ipAddress, type: row.type } : undefined;
  }

  /** Deletes a resolver and, by cascade, its links to federations. */
  async remove(manager: EntityManager, id: number): Promise<void> {
    await manager.query('DELETE FROM federation_resolver WHERE id = ?', [id]);
  }

  /** The resolvers linked to a federation, by id. */
  async forFederation(federationId: number): Promise<Omit<FederationResolverRow, 'lastUpdated'>[]> {
    const rows = await this.dataSource.query<{ id: number | string; ipAddress: string; type: string }[]>(
      'SELECT fr.id AS id, fr.ip_address AS ipAddress, t.name AS type FROM federation_federation_resolver ffr ' +
        'JOIN federation_resolver fr ON fr.id = ffr.federation_resolver JOIN type t ON t.id = fr.type ' +
        'WHERE ffr.federation = ? ORDER BY fr.id',
      [federationId],
    );
    return rows.map((row) => ({ id: Number(row.id), ipAddress: row.ipAddress, type: row.type }));
  }

  /** Unlinks every resolver of the federation. */
  async unlinkAll(manager: EntityManager, federationId: number): Promise<void> {
    await manager.query('DELETE FROM federation_federation_resolver WHERE federation = ?', [federationId]);
  }
}
