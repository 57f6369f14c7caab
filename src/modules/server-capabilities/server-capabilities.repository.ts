import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { type DataSource, type EntityManager, In, type ObjectLiteral, type Repository } from 'typeorm';
import { insertRows } from 'src/common/database/insert-rows';
import { lockingClause, writeLock } from 'src/common/database/locks';
import { getPlainMany, rowsForIds } from 'src/common/database/plain-rows';
import { bindParameters } from 'src/common/database/typeorm-adapter';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { toDate } from 'src/common/time/timestamps';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { Server } from 'src/modules/servers/server.entity';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import { DeliveryServiceRequiredCapability } from './delivery-service-required-capability.entity';
import type { RequiredCapabilityRow } from './dto/required-capability.response';
import type { ServerServerCapabilityRow } from './dto/server-server-capability.response';
import { ServerCapability } from './server-capability.entity';
import { ServerServerCapability } from './server-server-capability.entity';

/**
 * Server types that may have capabilities: the original's `type.name LIKE 'MID%' OR LIKE 'EDGE%'`
 * among server types (case-sensitive, as PostgreSQL's LIKE). `t` is the server's type.
 */
const CAPABLE_SERVER_TYPE = `(t.use_in_table = 'server' AND (SUBSTR(t.name, 1, 3) = 'MID' OR SUBSTR(t.name, 1, 4) = 'EDGE'))`;

/** What the required-capability rules read of a delivery service. */
export interface DeliveryServiceInfo {
  id: number;
  tenantId: number;
  type: string;
  topology: string | null;
}

/**
 * The module's tables (`server_capability`, `server_server_capability`,
 * `deliveryservices_required_capability`) and what its rules read of servers, types, topologies and
 * delivery services: the only file of the module that runs SQL (docs/architecture.md#data-access).
 * Methods taking a `manager` run on it (the caller's transaction) when given.
 */
@Injectable()
export class ServerCapabilitiesRepository {
  constructor(
    @InjectRepository(ServerCapability) private readonly capabilities: Repository<ServerCapability>,
    @InjectRepository(ServerServerCapability) private readonly pairs: Repository<ServerServerCapability>,
    @InjectRepository(DeliveryServiceRequiredCapability)
    private readonly required: Repository<DeliveryServiceRequiredCapability>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  // server_capability

  listCapabilities(query: ListQuery): Promise<ServerCapability[]> {
    return getPlainMany(applyListQuery(this.capabilities.createQueryBuilder('sc'), query));
  }

  capability(name: string): Promise<ServerCapability> {
    return this.capabilities.findOneByOrFail({ name });
  }

  /** The capability, read with a write lock (before changing or deleting it). */
  lockedCapability(name: string): Promise<ServerCapability | null> {
    return this.capabilities.findOne({ where: { name }, lock: writeLock(this.dataSource) });
  }

  /** Whether the capability exists, by a locking read that keeps it until the write commits. */
  async capabilityExistsLocked(name: string): Promise<boolean> {
    const rows = await this.run(
      'SELECT name FROM server_capability WHERE name = :name' + lockingClause(this.dataSource, 'share'),
      { name },
    );
    return rows.length > 0;
  }

  async addCapability(columns: Pick<ServerCapability, 'name' | 'description'>): Promise<void> {
    await insertRows(this.capabilities.manager, this.capabilities.target, columns);
  }

  async changeCapability(
    name: string,
    changes: Partial<Pick<ServerCapability, 'name' | 'description'>>,
  ): Promise<void> {
    await this.capabilities.update({ name }, changes);
  }

  /** Deletes a capability: whether there was one. */
  async removeCapability(name: string): Promise<boolean> {
    return Boolean((await this.capabilities.delete({ name })).affected);
  }

  /** How many servers have the capability. */
  async serverCount(name: string): Promise<number> {
    const [{ count }] = await this.run<{ count: number | string }>(
      'SELECT COUNT(*) AS count FROM server_server_capability WHERE server_capability = :name',
      { name },
    );
    return Number(count);
  }

  // server_server_capability

  async listPairs(query: ListQuery): Promise<ServerServerCapabilityRow[]> {
    const qb = this.pairs
      .createQueryBuilder('ssc')
      .innerJoin(Server, 's', 's.id = ssc.server')
      .select('ssc.server', 'serverId')
      .addSelect('ssc.server_capability', 'serverCapability')
      .addSelect('ssc.last_updated', 'lastUpdated')
      .addSelect('s.host_name', 'serverHostName');
    const rows = await applyListQuery(qb, query).addOrderBy('ssc.server_capability', 'ASC').getRawMany<{
      serverId: number | string;
      serverCapability: string;
      lastUpdated: Date | string;
      serverHostName: string;
    }>();
    return rows.map((row) => ({
      serverId: Number(row.serverId),
      serverCapability: row.serverCapability,
      lastUpdated: toDate(row.lastUpdated),
      serverHostName: row.serverHostName,
    }));
  }

  async addPair(serverId: number, serverCapability: string): Promise<void> {
    await insertRows(this.pairs.manager, this.pairs.target, { serverId, serverCapability });
  }

  pair(serverId: number, serverCapability: string): Promise<ServerServerCapability> {
    return this.pairs.findOneByOrFail({ serverId, serverCapability });
  }

  /** Locks the pair, if it exists, until the transaction ends. */
  async lockPair(serverId: number, capability: string): Promise<void> {
    await this.run(
      'SELECT server FROM server_server_capability WHERE server = :serverId AND server_capability = :capability' +
        lockingClause(this.dataSource, 'write'),
      { serverId, capability },
    );
  }

  /**
   * The delivery services the server is assigned to that require the capability, by a locking read
   * (none can be added until the transaction ends).
   */
  async requiringDeliveryServices(
    serverId: number,
    capability: string,
  ): Promise<{ id: number; tenantId: number }[]> {
    const rows = await this.run<{ id: number | string; tenantId: number | string }>(
      'SELECT ds.id AS id, ds.tenant_id AS tenantId FROM deliveryservice_server dss ' +
        'JOIN deliveryservices_required_capability drc ' +
        'ON drc.deliveryservice_id = dss.deliveryservice AND drc.required_capability = :capability ' +
        'JOIN deliveryservice ds ON ds.id = dss.deliveryservice WHERE dss.server = :serverId ORDER BY ds.id' +
        lockingClause(this.dataSource, 'share'),
      { serverId, capability },
    );
    return rows.map((row) => ({ id: Number(row.id), tenantId: Number(row.tenantId) }));
  }

  /**
   * The delivery services whose topology holds the server's cache group and that require the
   * capability, each with all of its required capabilities (one row each, by xml id), by a locking read.
   */
  topologyDeliveryServicesRequiring(
    serverId: number,
    capability: string,
  ): Promise<{ xmlId: string; topology: string; tenantId: number | string; required: string }[]> {
    return this.run(
      'SELECT ds.xml_id AS xmlId, ds.topology AS topology, ds.tenant_id AS tenantId, ' +
        'all_rc.required_capability AS required FROM server s ' +
        'JOIN cachegroup c ON c.id = s.cachegroup JOIN topology_cachegroup tc ON tc.cachegroup = c.name ' +
        'JOIN deliveryservice ds ON ds.topology = tc.topology ' +
        'JOIN deliveryservices_required_capability rc ' +
        'ON rc.deliveryservice_id = ds.id AND rc.required_capability = :capability ' +
        'JOIN deliveryservices_required_capability all_rc ON all_rc.deliveryservice_id = ds.id ' +
        'WHERE s.id = :serverId ORDER BY ds.xml_id, all_rc.required_capability' +
        lockingClause(this.dataSource, 'share'),
      { serverId, capability },
    );
  }

  /**
   * The other servers of the server's cache group and CDN that have the capability, each with all of
   * its capabilities (one row each), by a locking read.
   */
  otherCapableServersOfCachegroup(
    serverId: number,
    capability: string,
  ): Promise<{ id: number | string; capability: string }[]> {
    return this.run(
      'SELECT s.id AS id, ssc.server_capability AS capability FROM server s ' +
        'JOIN server_server_capability ssc ON ssc.server = s.id ' +
        'JOIN server me ON me.id = :serverId AND me.cachegroup = s.cachegroup AND me.cdn_id = s.cdn_id ' +
        'WHERE s.id <> :serverId AND s.id IN (SELECT has.server FROM server_server_capability has ' +
        'WHERE has.server_capability = :capability) ORDER BY s.id' +
        lockingClause(this.dataSource, 'share'),
      { serverId, capability },
    );
  }

  /** Deletes one pair: whether there was one. */
  async removePair(serverId: number, serverCapability: string): Promise<boolean> {
    return Boolean((await this.pairs.delete({ serverId, serverCapability })).affected);
  }

  /** Deletes the pairs of a capability and/or a server (at least one given): how many went. */
  async removePairs(where: { capability?: string; serverId?: number }): Promise<number> {
    const conditions: string[] = [];
    if (where.capability !== undefined) {
      conditions.push('server_capability = :capability');
    }
    if (where.serverId !== undefined) {
      conditions.push('server = :serverId');
    }
    const result = await this.pairs
      .createQueryBuilder()
      .delete()
      .from(ServerServerCapability)
      .where(conditions.join(' AND '), where)
      .execute();
    return result.affected ?? 0;
  }

  /** Of these servers, those that exist, each with whether it is an EDGE or MID server. */
  async serversCapable(ids: number[]): Promise<Map<number, boolean>> {
    const rows = await this.run<{ id: number | string; capable: number | string | boolean }>(
      `SELECT s.id AS id, CASE WHEN ${CAPABLE_SERVER_TYPE} THEN 1 ELSE 0 END AS capable ` +
        'FROM server s JOIN type t ON t.id = s.type WHERE s.id IN (:...ids)',
      { ids: [...new Set(ids)] },
    );
    return new Map(rows.map((row) => [Number(row.id), Number(row.capable) === 1]));
  }

  // deliveryservices_required_capability

  async listRequired(query: ListQuery, tenantId: number): Promise<RequiredCapabilityRow[]> {
    const qb = withinTenancy(
      this.required
        .createQueryBuilder('drc')
        .innerJoin(DeliveryService, 'ds', 'ds.id = drc.deliveryservice_id')
        .select('drc.deliveryservice_id', 'deliveryServiceId')
        .addSelect('drc.required_capability', 'requiredCapability')
        .addSelect('drc.last_updated', 'lastUpdated')
        .addSelect('ds.xml_id', 'xmlId'),
      'ds.tenant_id',
      tenantId,
    );
    const rows = await applyListQuery(qb, query).getRawMany<{
      deliveryServiceId: number | string;
      requiredCapability: string;
      lastUpdated: Date | string;
      xmlId: string;
    }>();
    return rows.map((row) => ({
      deliveryServiceId: Number(row.deliveryServiceId),
      requiredCapability: row.requiredCapability,
      lastUpdated: toDate(row.lastUpdated),
      xmlId: row.xmlId,
    }));
  }

  /** The (delivery service, capability) pairs of these delivery services, in capability name order. */
  async requiredOf(ids: number[], manager?: EntityManager): Promise<{ ds: number; capability: string }[]> {
    const rows = await rowsForIds<{ ds: number | string; capability: string }>(
      manager ?? this.dataSource.manager,
      'SELECT t.deliveryservice_id AS ds, t.required_capability AS capability ' +
        'FROM deliveryservices_required_capability t WHERE t.deliveryservice_id IN (:ids) ' +
        'ORDER BY t.required_capability ASC',
      [...new Set(ids)],
    );
    return rows.map((row) => ({ ds: Number(row.ds), capability: row.capability }));
  }

  /** Those of `names` that are capabilities. */
  async existingCapabilities(names: string[], manager?: EntityManager): Promise<Set<string>> {
    const rows = await (manager ?? this.dataSource.manager).find(ServerCapability, {
      where: { name: In([...new Set(names)]) },
    });
    return new Set(rows.map((row) => row.name));
  }

  /** Removes the delivery service's required capabilities other than `kept`; answers those left. */
  async removeRequiredExcept(
    deliveryServiceId: number,
    kept: string[],
    manager?: EntityManager,
  ): Promise<Set<string>> {
    const em = manager ?? this.dataSource.manager;
    const removed = em
      .createQueryBuilder()
      .delete()
      .from(DeliveryServiceRequiredCapability)
      .where('deliveryservice_id = :id', { id: deliveryServiceId });
    if (kept.length > 0) {
      removed.andWhere('required_capability NOT IN (:...kept)', { kept });
    }
    await removed.execute();
    const present = await em.find(DeliveryServiceRequiredCapability, { where: { deliveryServiceId } });
    return new Set(present.map((row) => row.requiredCapability));
  }

  /** Adds required capabilities to a delivery service (one statement). */
  async addRequired(deliveryServiceId: number, names: string[], manager?: EntityManager): Promise<void> {
    await insertRows(
      manager ?? this.required.manager,
      DeliveryServiceRequiredCapability,
      names.map((requiredCapability) => ({ deliveryServiceId, requiredCapability })),
    );
  }

  requiredPair(
    deliveryServiceId: number,
    requiredCapability: string,
  ): Promise<DeliveryServiceRequiredCapability> {
    return this.required.findOneByOrFail({ deliveryServiceId, requiredCapability });
  }

  /** Deletes one required capability: whether there was one. */
  async removeRequired(deliveryServiceId: number, requiredCapability: string): Promise<boolean> {
    return Boolean((await this.required.delete({ deliveryServiceId, requiredCapability })).affected);
  }

  /**
   * The servers of the delivery service's CDN in the topology's cache groups (origin cache groups
   * aside), each with how many of `wanted` it has, by cache group name: a locking read.
   */
  async topologyServers(
    dsId: number,
    topology: string,
    wanted: string[],
    manager?: EntityManager,
  ): Promise<{ cachegroup: string; has: number }[]> {
    const rows = await this.run<{ cachegroup: string; id: number | string; has: number | string }>(
      'SELECT c.name AS cachegroup, s.id AS id, ' +
        (wanted.length === 0
          ? '0 AS has '
          : '(SELECT COUNT(*) FROM server_server_capability ssc WHERE ssc.server = s.id ' +
            'AND ssc.server_capability IN (:...wanted)) AS has ') +
        'FROM server s JOIN cachegroup c ON c.id = s.cachegroup ' +
        'JOIN topology_cachegroup tc ON tc.cachegroup = c.name JOIN type ct ON ct.id = c.type ' +
        'WHERE s.cdn_id = (SELECT d.cdn_id FROM deliveryservice d WHERE d.id = :dsId) ' +
        "AND tc.topology = :topology AND ct.name <> 'ORG_LOC' ORDER BY c.name, s.id" +
        lockingClause(this.dataSource, 'share'),
      { dsId, topology, wanted },
      manager,
    );
    return rows.map((row) => ({ cachegroup: row.cachegroup, has: Number(row.has) }));
  }

  /**
   * The non-origin servers assigned to the delivery service that lack the capability, by a locking
   * read that sees the latest assignments and capabilities and keeps them until the write commits.
   */
  async assignedServersLacking(dsId: number, capability: string): Promise<number[]> {
    const rows = await this.run<{ id: number | string; has: number | string | null }>(
      'SELECT dss.server AS id, ssc.server AS has FROM deliveryservice_server dss ' +
        'JOIN server s ON s.id = dss.server JOIN type t ON t.id = s.type ' +
        'LEFT JOIN server_server_capability ssc ON ssc.server = dss.server AND ssc.server_capability = :capability ' +
        "WHERE dss.deliveryservice = :dsId AND SUBSTR(t.name, 1, 3) <> 'ORG' ORDER BY dss.server" +
        lockingClause(this.dataSource, 'share'),
      { dsId, capability },
    );
    return rows.filter((row) => row.has === null).map((row) => Number(row.id));
  }

  /** The delivery service, read with a write lock, or undefined. */
  async lockedDeliveryService(id: number): Promise<DeliveryServiceInfo | undefined> {
    const [row] = await this.run<{
      id: number | string;
      tenantId: number | string;
      type: string;
      topology: string | null;
    }>(
      'SELECT ds.id AS id, ds.tenant_id AS tenantId, t.name AS type, ds.topology AS topology ' +
        'FROM deliveryservice ds JOIN type t ON t.id = ds.type WHERE ds.id = :id' +
        lockingClause(this.dataSource, 'write'),
      { id },
    );
    return row
      ? { id: Number(row.id), tenantId: Number(row.tenantId), type: row.type, topology: row.topology }
      : undefined;
  }

  /**
   * A raw statement with named parameters (`:name`, `:...list`), on `manager` or on the request's
   * transaction when there is one (the RequestScopedDataSource hands out its query runner).
   */
  private run<T = ObjectLiteral>(
    sql: string,
    parameters: ObjectLiteral,
    manager?: EntityManager,
  ): Promise<T[]> {
    const [query, bound] = bindParameters(this.dataSource, sql, parameters);
    return (manager ?? this.dataSource).query<T[]>(query, bound);
  }
}
