import { bindParameters } from 'src/common/database/typeorm-adapter';
import { ConflictException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { classifyDbError } from 'src/common/database/db-error';
import type { CurrentUser } from 'src/common/types/current-user';
import { tenantCondition } from 'src/modules/tenants/tenants.repository';
import type { ResolverMapping } from './resolver-mappings.body';
import { insertLinksIgnoringDuplicates, placeholders } from 'src/modules/federations/federation-store';
import { lockingClause } from 'src/common/database/locks';
import { UnitOfWork } from 'src/common/database/unit-of-work';

export interface FederationMapping {
  ttl: number;
  cname: string;
  resolve4?: string[];
  resolve6?: string[];
}

export interface DeliveryServiceMappings {
  mappings: FederationMapping[];
  deliveryService: string;
}

const USER_FEDERATIONS = 'SELECT fu.federation FROM federation_tmuser fu WHERE fu.tm_user = ?';

/**
 * The resolver mappings of the signed-in user (`/federations`, docs/original-behaviour.md#federations):
 * the user's federations (federation_tmuser) on their delivery services (federation_deliveryservice),
 * and the resolvers linked to them. A user's writes only ever link or unlink resolvers of the user's
 * own federations; other users' federations are never touched.
 */
@Injectable()
export class FederationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** One entry per delivery service (ordered by xmlId), one mapping per federation (by id). */
  async mappingsOf(user: CurrentUser): Promise<DeliveryServiceMappings[]> {
    const federations = await this.dataSource.query<
      { federation: number | string; ttl: number | string; cname: string; xmlId: string }[]
    >(
      'SELECT f.id AS federation, f.ttl AS ttl, f.cname AS cname, ds.xml_id AS xmlId FROM federation_tmuser fu ' +
        'JOIN federation f ON f.id = fu.federation ' +
        'JOIN federation_deliveryservice fds ON fds.federation = f.id ' +
        'JOIN deliveryservice ds ON ds.id = fds.deliveryservice ' +
        'WHERE fu.tm_user = ? ORDER BY ds.xml_id, f.id',
      [user.id],
    );
    const resolvers = await this.dataSource.query<
      { federation: number | string; type: string; ipAddress: string }[]
    >(
      'SELECT ffr.federation AS federation, t.name AS type, fr.ip_address AS ipAddress ' +
        'FROM federation_federation_resolver ffr ' +
        'JOIN federation_resolver fr ON fr.id = ffr.federation_resolver JOIN type t ON t.id = fr.type ' +
        `WHERE ffr.federation IN (${USER_FEDERATIONS}) ORDER BY fr.id`,
      [user.id],
    );
    const byFederation = new Map<number, { resolve4: string[]; resolve6: string[] }>();
    for (const resolver of resolvers) {
      const id = Number(resolver.federation);
      const entry = byFederation.get(id) ?? { resolve4: [], resolve6: [] };
      if (resolver.type === 'RESOLVE4') {
        entry.resolve4.push(resolver.ipAddress);
      } else if (resolver.type === 'RESOLVE6') {
        entry.resolve6.push(resolver.ipAddress);
      }
      byFederation.set(id, entry);
    }
    const result: DeliveryServiceMappings[] = [];
    for (const row of federations) {
      let entry = result.at(-1);
      if (entry?.deliveryService !== row.xmlId) {
        entry = { mappings: [], deliveryService: row.xmlId };
        result.push(entry);
      }
      const mapping: FederationMapping = { ttl: Number(row.ttl), cname: row.cname };
      const linked = byFederation.get(Number(row.federation));
      if (linked && linked.resolve4.length > 0) {
        mapping.resolve4 = linked.resolve4;
      }
      if (linked && linked.resolve6.length > 0) {
        mapping.resolve6 = linked.resolve6;
      }
      entry.mappings.push(mapping);
    }
    return result;
  }

  /** POST: the whole request in one transaction (a 409 on any mapping writes nothing). */
  create(user: CurrentUser, mappings: ResolverMapping[]): Promise<void> {
    return this.unitOfWork.run((manager) => this.addMappings(manager, user, mappings));
  }

  /** PUT: every resolver of the user's federations removed, then POST's rules; one transaction. */
  replace(user: CurrentUser, mappings: ResolverMapping[]): Promise<string[]> {
    return this.unitOfWork.run(async (manager) => {
      const deleted = await this.removeAll(manager, user);
      await this.addMappings(manager, user, mappings);
      return deleted;
    });
  }

  /** DELETE: 409 when the user's federations have no resolver. */
  remove(user: CurrentUser): Promise<string[]> {
    return this.unitOfWork.run(async (manager) => {
      const deleted = await this.removeAll(manager, user);
      if (deleted.length === 0) {
        throw new ConflictException(`No federation resolvers to delete for user ${user.username}`);
      }
      return deleted;
    });
  }

  /**
   * Per mapping, in request order: the delivery service must exist and be within the user's
   * tenancy (409 `'<xmlId>' - no such Delivery Service` either way, hiding existence), and the user
   * must have a federation on it (409). Then each address is upserted into federation_resolver and
   * linked to each of the user's federations on that delivery service (existing links kept).
   */
  private async addMappings(
    manager: EntityManager,
    user: CurrentUser,
    mappings: ResolverMapping[],
  ): Promise<void> {
    const xmlIds = [...new Set(mappings.map((m) => m.deliveryService))];
    const reachable = tenantCondition('ds.tenant_id', user.tenantId);
    const [reachSql, reachParams] = bindParameters(
      this.dataSource,
      'SELECT ds.id AS id, ds.xml_id AS xmlId, ' +
        `CASE WHEN ${reachable.sql} THEN 1 ELSE 0 END AS reachable ` +
        'FROM deliveryservice ds WHERE ds.xml_id IN (:...xmlIds)',
      { ...reachable.parameters, xmlIds },
      {},
    );
    const deliveryServices = await manager.query<
      { id: number | string; xmlId: string; reachable: number | string }[]
    >(reachSql, reachParams);
    const dsByXmlId = new Map(deliveryServices.map((ds) => [ds.xmlId, ds]));
    const dsIds = deliveryServices.map((ds) => Number(ds.id));
    const links =
      dsIds.length === 0
        ? []
        : await manager.query<{ ds: number | string; federation: number | string }[]>(
            'SELECT fds.deliveryservice AS ds, fds.federation AS federation FROM federation_deliveryservice fds ' +
              `WHERE fds.federation IN (${USER_FEDERATIONS}) AND fds.deliveryservice IN (${placeholders(dsIds.length)}) ` +
              'ORDER BY fds.federation',
            [user.id, ...dsIds],
          );

    const pairs: [number, number][] = [];
    for (const mapping of mappings) {
      const ds = dsByXmlId.get(mapping.deliveryService);
      if (!ds || Number(ds.reachable) !== 1) {
        throw new ConflictException(`'${mapping.deliveryService}' - no such Delivery Service`);
      }
      const federations = links
        .filter((l) => Number(l.ds) === Number(ds.id))
        .map((l) => Number(l.federation));
      if (federations.length === 0) {
        throw new ConflictException(
          `No federation(s) found for user ${user.username} on delivery service '${mapping.deliveryService}'.`,
        );
      }
      const addresses = [
        ...mapping.resolve4.map((ip) => [ip, 'RESOLVE4'] as const),
        ...mapping.resolve6.map((ip) => [ip, 'RESOLVE6'] as const),
      ];
      for (const [ip, type] of addresses) {
        const resolverId = await this.upsertResolver(manager, ip, type);
        for (const federation of federations) {
          pairs.push([federation, resolverId]);
        }
      }
    }
    await insertLinksIgnoringDuplicates(
      manager,
      'federation_federation_resolver',
      ['federation', 'federation_resolver'],
      pairs,
    );
  }

  /**
   * The resolver of an address: inserted, or, when the unique index says the address exists, the
   * existing row (read with a locking read on MySQL, which sees rows committed after our snapshot).
   * No SELECT decides before the write, so concurrent requests cannot both create it.
   */
  private async upsertResolver(
    manager: EntityManager,
    ip: string,
    type: 'RESOLVE4' | 'RESOLVE6',
  ): Promise<number> {
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
  private async removeAll(manager: EntityManager, user: CurrentUser): Promise<string[]> {
    const lock = lockingClause(manager.connection, 'write');
    const rows = await manager.query<{ id: number | string; ipAddress: string }[]>(
      'SELECT DISTINCT fr.id AS id, fr.ip_address AS ipAddress FROM federation_resolver fr ' +
        'JOIN federation_federation_resolver ffr ON ffr.federation_resolver = fr.id ' +
        `WHERE ffr.federation IN (${USER_FEDERATIONS}) ORDER BY fr.id${lock}`,
      [user.id],
    );
    if (rows.length === 0) {
      return [];
    }
    await manager.query(
      `DELETE FROM federation_federation_resolver WHERE federation IN (${USER_FEDERATIONS})`,
      [user.id],
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
