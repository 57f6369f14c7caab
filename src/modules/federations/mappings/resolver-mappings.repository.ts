import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { classifyDbError } from 'src/common/database/db-error';
import { lockingClause } from 'src/common/database/locks';
import { bindParameters } from 'src/common/database/typeorm-adapter';
import { placeholders } from 'src/modules/federations/federations.repository';
import { tenantCondition } from 'src/modules/tenants/tenants.repository';

/** A federation on one of its delivery services, as the mappings read it. */
export interface FederationOfDeliveryService {
  federation: number | string;
  ttl: number | string;
  cname: string;
  xmlId: string;
}

/** A resolver linked to a federation. */
export interface LinkedResolver {
  federation: number | string;
  type: string;
  ipAddress: string;
}

const USER_FEDERATIONS = 'SELECT fu.federation FROM federation_tmuser fu WHERE fu.tm_user = ?';

/**
 * What the resolver mappings of a user (`/federations`) read and write: the user's federations,
 * their delivery services, federation_resolver and its links. The only file of the folder that runs
 * SQL (docs/architecture.md#data-access); methods taking a `manager` run in the caller's transaction.
 */
@Injectable()
export class ResolverMappingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The user's federations on their delivery services, by xmlId and federation id. */
  federationsOf(userId: number): Promise<FederationOfDeliveryService[]> {
    return this.dataSource.query<FederationOfDeliveryService[]>(
      'SELECT f.id AS federation, f.ttl AS ttl, f.cname AS cname, ds.xml_id AS xmlId FROM federation_tmuser fu ' +
        'JOIN federation f ON f.id = fu.federation ' +
        'JOIN federation_deliveryservice fds ON fds.federation = f.id ' +
        'JOIN deliveryservice ds ON ds.id = fds.deliveryservice ' +
        'WHERE fu.tm_user = ? ORDER BY ds.xml_id, f.id',
      [userId],
    );
  }

  /** The resolvers linked to the user's federations, by id. */
  resolversOf(userId: number): Promise<LinkedResolver[]> {
    return this.dataSource.query<LinkedResolver[]>(
      'SELECT ffr.federation AS federation, t.name AS type, fr.ip_address AS ipAddress ' +
        'FROM federation_federation_resolver ffr ' +
        'JOIN federation_resolver fr ON fr.id = ffr.federation_resolver JOIN type t ON t.id = fr.type ' +
        `WHERE ffr.federation IN (${USER_FEDERATIONS}) ORDER BY fr.id`,
      [userId],
    );
  }

  /** The delivery services of those xmlIds that exist, with whether the tenant reaches them. */
  async deliveryServices(
    manager: EntityManager,
    xmlIds: string[],
    tenantId: number,
  ): Promise<{ id: number; xmlId: string; reachable: boolean }[]> {
    const reachable = tenantCondition('ds.tenant_id', tenantId);
    const [sql, parameters] = bindParameters(
      this.dataSource,
      'SELECT ds.id AS id, ds.xml_id AS xmlId, ' +
        `CASE WHEN ${reachable.sql} THEN 1 ELSE 0 END AS reachable ` +
        'FROM deliveryservice ds WHERE ds.xml_id IN (:...xmlIds)',
      { ...reachable.parameters, xmlIds },
      {},
    );
    const rows = await manager.query<{ id: number | string; xmlId: string; reachable: number | string }[]>(
      sql,
      parameters,
    );
    return rows.map((ds) => ({ id: Number(ds.id), xmlId: ds.xmlId, reachable: Number(ds.reachable) === 1 }));
  }

  /** The user's federations on those delivery services, by federation. */
  async userFederationsOn(
    manager: EntityManager,
    userId: number,
    dsIds: number[],
  ): Promise<{ ds: number; federation: number }[]> {
    if (dsIds.length === 0) {
      return [];
    }
    const rows = await manager.query<{ ds: number | string; federation: number | string }[]>(
      'SELECT fds.deliveryservice AS ds, fds.federation AS federation FROM federation_deliveryservice fds ' +
        `WHERE fds.federation IN (${USER_FEDERATIONS}) AND fds.deliveryservice IN (${placeholders(dsIds.length)}) ` +
        'ORDER BY fds.federation',
      [userId, ...dsIds],
    );
    return rows.map((row) => ({ ds: Number(row.ds), federation: Number(row.federation) }));
  }

  /**
   * The resolver of an address: inserted, or, when the unique index says the address exists, the
   * existing row (read with a locking read on MySQL, which sees rows committed after our snapshot).
   * No SELECT decides before the write, so concurrent requests cannot both create it.
   */
  async upsertResolver(manager: EntityManager, ip: string, type: 'RESOLVE4' | 'RESOLVE6'): Promise<number> {
    try {
      await manager.query(
        'INSERT INTO federation_resolver (ip_address, type) SELECT ?, t.id FROM type t WHERE t.name = ?',
        [ip, type],
      );
    } catch (error) {
      if (classifyDbError(error)?.kind !== 'unique') {
        throw error;
      }
    }
    const lock = lockingClause(manager.connection, 'share');
    const [row] = await manager.query<{ id: number | string }[]>(
      `SELECT id FROM federation_resolver WHERE ip_address = ?${lock}`,
      [ip],
    );
    return Number(row.id);
  }

  /**
   * Unlinks every resolver from the user's federations and deletes the resolvers left linked to no
   * federation; answers the addresses unlinked (by resolver id). A resolver another user's
   * federation still uses stays, linked to that federation only.
   */
  async unlinkAll(manager: EntityManager, userId: number): Promise<string[]> {
    const lock = lockingClause(manager.connection, 'write');
    const rows = await manager.query<{ id: number | string; ipAddress: string }[]>(
      'SELECT DISTINCT fr.id AS id, fr.ip_address AS ipAddress FROM federation_resolver fr ' +
        'JOIN federation_federation_resolver ffr ON ffr.federation_resolver = fr.id ' +
        `WHERE ffr.federation IN (${USER_FEDERATIONS}) ORDER BY fr.id${lock}`,
      [userId],
    );
    if (rows.length === 0) {
      return [];
    }
    await manager.query(
      `DELETE FROM federation_federation_resolver WHERE federation IN (${USER_FEDERATIONS})`,
      [userId],
    );
    const ids = rows.map((row) => Number(row.id));
    await manager.query(
      `DELETE FROM federation_resolver WHERE id IN (${placeholders(ids.length)}) AND NOT EXISTS ` +
        '(SELECT 1 FROM federation_federation_resolver ffr WHERE ffr.federation_resolver = federation_resolver.id)',
      ids,
    );
    return rows.map((row) => row.ipAddress);
  }
}
