import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import { lockingClause } from 'src/common/database/locks';
import { bindParameters } from 'src/common/database/typeorm-adapter';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { tenantCondition, withinTenancy } from 'src/modules/tenants/tenants.repository';
import { DeliveryServiceServer } from './delivery-service-server.entity';
import type {
  AssigneeServer,
  CachegroupDeliveryService,
  DeliveryServiceInfo,
  NamedDeliveryService,
  ServerInfo,
} from './assignment-rows';
import type { AssignmentRow } from './dto/delivery-service-server.response';

/** Server types a cache group's delivery services are assigned to: `EDGE*` and `ORG*` (case-sensitive). */
const ASSIGNABLE_TYPE = `(SUBSTR(t.name, 1, 4) = 'EDGE' OR SUBSTR(t.name, 1, 3) = 'ORG')`;
const KIND_TYPE = { EDGE: `SUBSTR(t.name, 1, 4) = 'EDGE'`, ORG: `SUBSTR(t.name, 1, 3) = 'ORG'` };
const AVAILABLE_STATUS = `st.name IN ('ONLINE', 'REPORTED')`;

/** A server row as `serverInfos` reads it. */
const SERVER_INFO_COLUMNS =
  'SELECT s.id AS id, s.host_name AS hostName, cg.name AS cachegroup, s.cdn_id AS cdnId, t.name AS type, ' +
  'st.name AS status FROM server s JOIN type t ON t.id = s.type JOIN status st ON st.id = s.status ' +
  'JOIN cachegroup cg ON cg.id = s.cachegroup';

/** Adds the missing pairs of the delivery service `:dsId` and the servers `:...ids`. */
const INSERT_SERVERS_OF_DS =
  'INSERT INTO deliveryservice_server (deliveryservice, server) ' +
  'SELECT :dsId, s.id FROM server s WHERE s.id IN (:...ids) AND NOT EXISTS (' +
  'SELECT 1 FROM deliveryservice_server x WHERE x.deliveryservice = :dsId AND x.server = s.id)';

const toServerInfo = (row: Record<string, unknown>): ServerInfo => ({
  id: Number(row.id),
  hostName: String(row.hostName),
  cachegroup: String(row.cachegroup),
  cdnId: Number(row.cdnId),
  type: String(row.type),
  status: String(row.status),
});

/** A boolean as either database answers it. */
const truthy = (value: unknown): boolean => Number(value) === 1 || value === true;

/**
 * The deliveryservice_server table, and what the assignment rules read of delivery services,
 * servers, topologies and capabilities: the only file of the module that runs SQL
 * (docs/architecture.md#data-access). Methods taking a `manager` run in the caller's transaction;
 * `locked…` reads lock the rows they read for the rest of it (MySQL).
 */
@Injectable()
export class DeliveryServiceServersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One page of the assignments of delivery services within the tenant's reach. */
  async list(
    tenantId: number,
    query: ListQuery,
    ids: { deliveryServices: number[]; servers: number[] },
  ): Promise<AssignmentRow[]> {
    const qb = withinTenancy(
      this.dataSource.manager
        .createQueryBuilder(DeliveryServiceServer, 'dss')
        .innerJoin(DeliveryService, 'ds', 'ds.id = dss.deliveryservice'),
      'ds.tenant_id',
      tenantId,
    );
    if (ids.deliveryServices.length > 0) {
      qb.andWhere('dss.deliveryservice IN (:...dsIds)', { dsIds: ids.deliveryServices });
    }
    if (ids.servers.length > 0) {
      qb.andWhere('dss.server IN (:...serverIds)', { serverIds: ids.servers });
    }
    const rows = await applyListQuery(qb, query).getMany();
    return rows.map((row) => ({
      server: row.serverId,
      deliveryService: row.deliveryServiceId,
      lastUpdated: row.lastUpdated,
    }));
  }

  /** The delivery service, locked. */
  async lockedDeliveryService(manager: EntityManager, id: number): Promise<DeliveryServiceInfo | undefined> {
    const [row] = await this.rows<Record<string, unknown>>(
      manager,
      'SELECT ds.id AS id, ds.xml_id AS xmlId, ds.active AS active, ds.tenant_id AS tenantId, ' +
        'ds.cdn_id AS cdnId, ds.topology AS topology, ds.multi_site_origin AS multiSiteOrigin ' +
        `FROM deliveryservice ds WHERE ds.id = :id${lockingClause(this.dataSource, 'write')}`,
      { id },
    );
    if (!row) {
      return undefined;
    }
    return {
      id: Number(row.id),
      xmlId: String(row.xmlId),
      active: String(row.active),
      tenantId: Number(row.tenantId),
      cdnId: Number(row.cdnId),
      topology: (row.topology as string | null) ?? null,
      multiSiteOrigin: truthy(row.multiSiteOrigin),
    };
  }

  /** The id of the delivery service of that xmlId, locked; undefined when there is none. */
  async lockedDeliveryServiceId(manager: EntityManager, xmlId: string): Promise<number | undefined> {
    const lock = lockingClause(this.dataSource, 'write');
    const [row] = await this.rows<{ id: number | string }>(
      manager,
      `SELECT ds.id AS id FROM deliveryservice ds WHERE ds.xml_id = :xmlId${lock}`,
      { xmlId },
    );
    return row ? Number(row.id) : undefined;
  }

  /** The tenant of the delivery service; undefined when there is no such delivery service. */
  async deliveryServiceTenant(dsId: number): Promise<number | undefined> {
    const [ds] = await this.rows<{ tenantId: number | string }>(
      this.dataSource.manager,
      'SELECT ds.tenant_id AS tenantId FROM deliveryservice ds WHERE ds.id = :dsId',
      { dsId },
    );
    return ds ? Number(ds.tenantId) : undefined;
  }

  /** Whether there is such a server. */
  async serverExists(manager: EntityManager, serverId: number): Promise<boolean> {
    const rows = await this.rows(manager, 'SELECT s.id FROM server s WHERE s.id = :serverId', { serverId });
    return rows.length > 0;
  }

  /** The type of the server; undefined when there is no such server. */
  async serverType(serverId: number, manager = this.dataSource.manager): Promise<string | undefined> {
    const [server] = await this.rows<{ type: string }>(
      manager,
      'SELECT t.name AS type FROM server s JOIN type t ON t.id = s.type WHERE s.id = :serverId',
      { serverId },
    );
    return server?.type;
  }

  /** The servers of those ids, or of those host names, that exist. */
  async servers(manager: EntityManager, key: { ids: number[] } | { names: string[] }): Promise<ServerInfo[]> {
    const [where, values] = 'ids' in key ? ['s.id', key.ids] : ['s.host_name', key.names];
    if (values.length === 0) {
      return [];
    }
    const rows = await this.rows(manager, `${SERVER_INFO_COLUMNS} WHERE ${where} IN (:...values)`, {
      values,
    });
    return rows.map(toServerInfo);
  }

  /** The server with its CDN's name, locked; undefined when there is no such server. */
  async lockedAssigneeServer(manager: EntityManager, serverId: number): Promise<AssigneeServer | undefined> {
    const [row] = await this.rows(
      manager,
      'SELECT s.id AS id, s.host_name AS hostName, cg.name AS cachegroup, s.cdn_id AS cdnId, ' +
        'c.name AS cdnName, t.name AS type, st.name AS status FROM server s JOIN cdn c ON c.id = s.cdn_id ' +
        'JOIN type t ON t.id = s.type JOIN status st ON st.id = s.status ' +
        `JOIN cachegroup cg ON cg.id = s.cachegroup WHERE s.id = :serverId${lockingClause(this.dataSource, 'write')}`,
      { serverId },
    );
    return row ? { ...toServerInfo(row), cdnName: String(row.cdnName) } : undefined;
  }

  /** The host names of the cache group's EDGE… and ORG… servers, by name. */
  async assignableHostNames(manager: EntityManager, cachegroupId: number): Promise<string[]> {
    const rows = await this.rows<{ hostName: string }>(
      manager,
      'SELECT s.host_name AS hostName FROM server s JOIN type t ON t.id = s.type ' +
        `WHERE s.cachegroup = :cachegroupId AND ${ASSIGNABLE_TYPE} ORDER BY s.host_name, s.id`,
      { cachegroupId },
    );
    return rows.map((row) => row.hostName);
  }

  /** The delivery services of those ids that exist, with their CDN and whether the tenant reaches them. */
  async namedDeliveryServices(
    manager: EntityManager,
    tenantId: number,
    dsIds: number[],
  ): Promise<NamedDeliveryService[]> {
    const reachable = tenantCondition('ds.tenant_id', tenantId);
    const rows = await this.rows(
      manager,
      'SELECT ds.id AS id, ds.xml_id AS xmlId, ds.cdn_id AS cdnId, c.name AS cdnName, ' +
        `CASE WHEN ${reachable.sql} THEN 1 ELSE 0 END AS reachable ` +
        'FROM deliveryservice ds LEFT JOIN cdn c ON c.id = ds.cdn_id WHERE ds.id IN (:...dsIds)',
      { ...reachable.parameters, dsIds },
    );
    return rows.map((r) => ({
      id: Number(r.id),
      xmlId: String(r.xmlId),
      cdnId: Number(r.cdnId),
      cdnName: r.cdnName as string | null,
      reachable: Number(r.reachable) === 1,
    }));
  }

  /**
   * The delivery services of those ids that exist, with whether the tenant reaches them and whether
   * a server of the cache group is of another CDN.
   */
  async cachegroupDeliveryServices(
    manager: EntityManager,
    tenantId: number,
    cachegroupId: number,
    ids: number[],
  ): Promise<CachegroupDeliveryService[]> {
    const reachable = tenantCondition('ds.tenant_id', tenantId);
    const rows = await this.rows(
      manager,
      'SELECT ds.id AS id, ds.tenant_id AS tenantId, ds.topology AS topology, c.name AS cdnName, ' +
        `CASE WHEN ${reachable.sql} THEN 1 ELSE 0 END AS reachable, ` +
        'CASE WHEN EXISTS (SELECT 1 FROM server s WHERE s.cachegroup = :cachegroupId AND s.cdn_id <> ds.cdn_id) ' +
        'THEN 1 ELSE 0 END AS cdnMismatch ' +
        'FROM deliveryservice ds JOIN cdn c ON c.id = ds.cdn_id WHERE ds.id IN (:...ids)',
      { ...reachable.parameters, cachegroupId, ids },
    );
    return rows.map((row) => ({
      id: Number(row.id),
      tenantId: Number(row.tenantId),
      topology: row.topology as string | null,
      cdnName: String(row.cdnName),
      reachable: Number(row.reachable) === 1,
      cdnMismatch: Number(row.cdnMismatch) === 1,
    }));
  }

  /**
   * The active delivery services the server serves, bar those in `keep`, in which it is the only
   * ONLINE or REPORTED server of its kind, by id.
   */
  async servedOnlyBy(
    manager: EntityManager,
    serverId: number,
    kind: 'EDGE' | 'ORG',
    keep: number[],
  ): Promise<{ id: number; multiSiteOrigin: boolean; topology: string | null }[]> {
    const rows = await this.rows(
      manager,
      'SELECT d.id AS id, d.multi_site_origin AS mso, d.topology AS topology FROM deliveryservice d ' +
        'JOIN deliveryservice_server dss ON dss.deliveryservice = d.id JOIN server s ON s.id = dss.server ' +
        'JOIN status st ON st.id = s.status JOIN type t ON t.id = s.type ' +
        "WHERE d.active = 'ACTIVE' AND d.id IN (SELECT y.deliveryservice FROM deliveryservice_server y " +
        'WHERE y.server = :serverId)' +
        (keep.length > 0 ? ' AND d.id NOT IN (:...keep)' : '') +
        ` AND ${AVAILABLE_STATUS} AND ${KIND_TYPE[kind]} ` +
        'GROUP BY d.id, d.multi_site_origin, d.topology HAVING COUNT(dss.server) = 1 ORDER BY d.id',
      { serverId, keep },
    );
    return rows.map((r) => ({
      id: Number(r.id),
      multiSiteOrigin: truthy(r.mso),
      topology: r.topology as string | null,
    }));
  }

  /** Whether the delivery service has an ONLINE or REPORTED server of the kind (bar `exceptServerId`). */
  async hasAvailable(
    manager: EntityManager,
    dsId: number,
    kind: 'EDGE' | 'ORG',
    exceptServerId?: number,
  ): Promise<boolean> {
    const except = exceptServerId === undefined ? '' : ' AND dss.server <> :serverId';
    const rows = await this.rows(
      manager,
      'SELECT 1 AS found FROM deliveryservice_server dss JOIN server s ON s.id = dss.server ' +
        'JOIN type t ON t.id = s.type JOIN status st ON st.id = s.status ' +
        `WHERE dss.deliveryservice = :dsId${except} AND ${AVAILABLE_STATUS} AND ${KIND_TYPE[kind]} LIMIT 1`,
      exceptServerId === undefined ? { dsId } : { dsId, serverId: exceptServerId },
    );
    return rows.length > 0;
  }

  /** The cache groups of the topology, in its order. */
  async topologyCachegroups(manager: EntityManager, topology: string): Promise<string[]> {
    const rows = await this.rows<{ name: string }>(
      manager,
      'SELECT tc.cachegroup AS name FROM topology_cachegroup tc WHERE tc.topology = :topology ORDER BY tc.id',
      { topology },
    );
    return rows.map((row) => row.name);
  }

  /** Of those delivery services, the topology-based ones whose topology lacks the cache group, by xmlId. */
  topologiesWithout(
    manager: EntityManager,
    dsIds: number[],
    cachegroup: string,
  ): Promise<{ xmlId: string; topology: string }[]> {
    return this.rows(
      manager,
      'SELECT ds.xml_id AS xmlId, ds.topology AS topology FROM deliveryservice ds ' +
        'WHERE ds.id IN (:...dsIds) AND ds.topology IS NOT NULL AND NOT EXISTS (' +
        'SELECT 1 FROM topology_cachegroup tc WHERE tc.topology = ds.topology AND tc.cachegroup = :cachegroup) ' +
        'ORDER BY ds.xml_id',
      { dsIds, cachegroup },
    );
  }

  /** The first (by id) of the delivery services requiring a capability the server lacks (a locking read). */
  async firstRequiringMore(
    manager: EntityManager,
    serverId: number,
    dsIds: number[],
  ): Promise<number | undefined> {
    const [lacking] = await this.rows<{ id: number | string }>(
      manager,
      'SELECT drc.deliveryservice_id AS id FROM deliveryservices_required_capability drc ' +
        'LEFT JOIN server_server_capability ssc ON ssc.server = :serverId ' +
        'AND ssc.server_capability = drc.required_capability ' +
        'WHERE drc.deliveryservice_id IN (:...dsIds) AND ssc.server IS NULL ORDER BY drc.deliveryservice_id' +
        lockingClause(this.dataSource, 'share'),
      { serverId, dsIds },
    );
    return lacking ? Number(lacking.id) : undefined;
  }

  /** The first (by id) of those EDGE servers lacking a capability the delivery service requires (a locking read). */
  async firstEdgeLacking(manager: EntityManager, dsId: number, ids: number[]): Promise<string | undefined> {
    const [lacking] = await this.rows<{ hostName: string }>(
      manager,
      'SELECT s.host_name AS hostName FROM server s JOIN type t ON t.id = s.type ' +
        'JOIN deliveryservices_required_capability drc ON drc.deliveryservice_id = :dsId ' +
        'LEFT JOIN server_server_capability ssc ON ssc.server = s.id AND ssc.server_capability = drc.required_capability ' +
        `WHERE s.id IN (:...ids) AND ${KIND_TYPE.EDGE} AND ssc.server IS NULL ORDER BY s.id` +
        lockingClause(this.dataSource, 'share'),
      { dsId, ids },
    );
    return lacking?.hostName;
  }

  /** The capabilities the delivery service requires, by name. */
  async requiredCapabilities(manager: EntityManager, dsId: number): Promise<string[]> {
    const rows = await this.rows<{ name: string }>(
      manager,
      'SELECT required_capability AS name FROM deliveryservices_required_capability ' +
        'WHERE deliveryservice_id = :dsId ORDER BY required_capability',
      { dsId },
    );
    return rows.map((row) => row.name);
  }

  /** Adds the missing assignments of those servers to the delivery service. */
  async addServers(manager: EntityManager, dsId: number, ids: number[]): Promise<void> {
    await this.rows(manager, INSERT_SERVERS_OF_DS, { dsId, ids });
  }

  /** Adds the missing assignments of the server to those delivery services. */
  async addDeliveryServices(manager: EntityManager, serverId: number, ids: number[]): Promise<void> {
    await this.rows(
      manager,
      'INSERT INTO deliveryservice_server (deliveryservice, server) ' +
        'SELECT ds.id, :serverId FROM deliveryservice ds WHERE ds.id IN (:...ids) AND NOT EXISTS (' +
        'SELECT 1 FROM deliveryservice_server x WHERE x.deliveryservice = ds.id AND x.server = :serverId)',
      { serverId, ids },
    );
  }

  /** Adds the missing assignments of the cache group's EDGE… and ORG… servers to those delivery services. */
  async addCachegroup(manager: EntityManager, cachegroupId: number, ids: number[]): Promise<void> {
    await this.rows(
      manager,
      'INSERT INTO deliveryservice_server (deliveryservice, server) ' +
        'SELECT ds.id, s.id FROM deliveryservice ds JOIN server s ON s.cachegroup = :cachegroupId ' +
        `JOIN type t ON t.id = s.type WHERE ds.id IN (:...ids) AND ${ASSIGNABLE_TYPE} AND NOT EXISTS (` +
        'SELECT 1 FROM deliveryservice_server x WHERE x.deliveryservice = ds.id AND x.server = s.id)',
      { cachegroupId, ids },
    );
  }

  /** Removes the assignments of the delivery service, or of the server, or the one pair: whether any went. */
  async remove(
    manager: EntityManager,
    where: { deliveryServiceId: number; serverId?: number } | { serverId: number },
  ): Promise<boolean> {
    return Boolean((await manager.delete(DeliveryServiceServer, where)).affected);
  }

  /** A statement with named parameters (`:name`, `:...list`), bound by the driver. */
  private rows<T extends ObjectLiteral = Record<string, unknown>>(
    manager: EntityManager,
    sql: string,
    parameters: ObjectLiteral,
  ): Promise<T[]> {
    const [query, bound] = bindParameters(this.dataSource, sql, parameters, {});
    return manager.query<T[]>(query, bound);
  }
}
