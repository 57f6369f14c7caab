import { bindParameters } from 'src/common/database/typeorm-adapter';
import { leftWithoutServersText } from 'src/modules/servers/server-rules';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { TenancyService, tenantCondition, withinTenancy } from 'src/modules/tenants/tenancy.service';
import { DeliveryServiceServer } from './delivery-service-server.entity';
import type { HostNameAssignment, ServerAssignment } from './dto/assignment.dto';
import type { DeferredBody } from 'src/common/validation/valid-body';
import type { AssignmentRow } from './dto/delivery-service-server.response';
import { lockingClause } from 'src/common/database/locks';

/** Server types a cache group's delivery services are assigned to: `EDGE*` and `ORG*` (case-sensitive). */
const ASSIGNABLE_TYPE = `(SUBSTR(t.name, 1, 4) = 'EDGE' OR SUBSTR(t.name, 1, 3) = 'ORG')`;
const EDGE_TYPE = `SUBSTR(t.name, 1, 4) = 'EDGE'`;
const ORG_TYPE = `SUBSTR(t.name, 1, 3) = 'ORG'`;
const AVAILABLE_STATUS = `st.name IN ('ONLINE', 'REPORTED')`;

/** What the assignment rules need to know of a delivery service. */
interface DeliveryServiceInfo {
  id: number;
  xmlId: string;
  active: string;
  tenantId: number;
  cdnId: number;
  topology: string | null;
  multiSiteOrigin: boolean;
}

interface ServerInfo {
  id: number;
  hostName: string;
  cachegroup: string;
  cdnId: number;
  type: string;
  status: string;
}

/** A server row as `serverInfos` reads it. */
const SERVER_INFO_COLUMNS =
  'SELECT s.id AS id, s.host_name AS hostName, cg.name AS cachegroup, s.cdn_id AS cdnId, t.name AS type, ' +
  'st.name AS status FROM server s JOIN type t ON t.id = s.type JOIN status st ON st.id = s.status ' +
  'JOIN cachegroup cg ON cg.id = s.cachegroup';

const toServerInfo = (row: Record<string, unknown>): ServerInfo => ({
  id: Number(row.id),
  hostName: String(row.hostName),
  cachegroup: String(row.cachegroup),
  cdnId: Number(row.cdnId),
  type: String(row.type),
  status: String(row.status),
});

/** What POST servers/{id}/deliveryservices answers (lib/go-tc AssignedDsResponse), with the server's name. */
export interface ServerAssignmentResult {
  serverId: number;
  hostName: string;
  dsIds: number[];
  replace: boolean;
}

/** The server of POST servers/{id}/deliveryservices, as its rules need it. */
interface AssigneeServer {
  id: number;
  hostName: string;
  cachegroup: string;
  cdnId: number;
  cdnName: string;
  type: string;
  status: string;
}

export interface CachegroupAssignmentResult {
  id: number;
  serverNames: string[];
  deliveryServices: number[];
}

/**
 * Server ↔ delivery service assignments (`deliveryservice_server`): the original's
 * /deliveryserviceserver routes and the cache-group bulk assignment. Every write is one
 * transaction of set-based statements; pairs that already exist are kept as they are.
 */
@Injectable()
export class DeliveryServiceServersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenancy: TenancyService,
  ) {}

  /** One page of the assignments of delivery services within the user's tenancy. */
  list(
    user: CurrentUser,
    query: ListQuery,
    ids: { deliveryServices: number[]; servers: number[] },
  ): Promise<AssignmentRow[]> {
    const qb = withinTenancy(
      this.dataSource.manager
        .createQueryBuilder(DeliveryServiceServer, 'dss')
        .innerJoin(DeliveryService, 'ds', 'ds.id = dss.deliveryservice'),
      'ds.tenant_id',
      user.tenantId,
    );
    if (ids.deliveryServices.length > 0) {
      qb.andWhere('dss.deliveryservice IN (:...dsIds)', { dsIds: ids.deliveryServices });
    }
    if (ids.servers.length > 0) {
      qb.andWhere('dss.server IN (:...serverIds)', { serverIds: ids.servers });
    }
    return applyListQuery(qb, query)
      .getMany()
      .then((rows) =>
        rows.map((row) => ({
          server: row.serverId,
          deliveryService: row.deliveryServiceId,
          lastUpdated: row.lastUpdated,
        })),
      );
  }

  /**
   * POST /deliveryserviceserver: assigns `servers` to the delivery service, first removing its other
   * assignments when `replace` is set. Checks in the original's order: the delivery service, its
   * tenancy, the servers' CDN (and type, for a topology-based one), the rules that keep an active
   * delivery service served, then the servers' existence.
   */
  replace(user: CurrentUser, body: ServerAssignment): Promise<ServerAssignment> {
    return this.dataSource.transaction(async (manager) => {
      const ds = await this.deliveryService(manager, body.dsId);
      if (!ds) {
        throw new BadRequestException('no delivery service with that ID exists');
      }
      await this.tenancy.assertWithinReach(user.tenantId, ds.tenantId, manager);
      const ids = [...new Set(body.servers)];
      const servers = await this.servers(manager, ids);
      await this.checkServersFit(manager, ds, servers);
      if (ds.active === 'ACTIVE' && body.replace) {
        await this.checkStillServed(manager, ds, servers);
      }
      await this.checkCapabilities(manager, ds.id, ids);
      if (servers.length < ids.length) {
        throw new NotFoundException('server not found');
      }
      if (body.replace) {
        await manager.delete(DeliveryServiceServer, { deliveryServiceId: ds.id });
      }
      if (ids.length > 0) {
        await this.execute(
          manager,
          'INSERT INTO deliveryservice_server (deliveryservice, server) ' +
            'SELECT :dsId, s.id FROM server s WHERE s.id IN (:...ids) AND NOT EXISTS (' +
            'SELECT 1 FROM deliveryservice_server x WHERE x.deliveryservice = :dsId AND x.server = s.id)',
          { dsId: ds.id, ids },
        );
      }
      return body;
    });
  }

  /** DELETE /deliveryserviceserver/{dsId}/{serverId}, with the original's checks and texts. */
  unassign(user: CurrentUser, dsId: number, serverId: number): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      const ds = await this.deliveryService(manager, dsId);
      if (!ds) {
        throw new NotFoundException(`no such Delivery Service: #${dsId}`);
      }
      await this.tenancy.assertWithinReach(user.tenantId, ds.tenantId, manager);
      if (ds.active === 'ACTIVE') {
        await this.checkNotLastAvailable(manager, ds, serverId);
      }
      const [server] = await this.rows(manager, 'SELECT s.id FROM server s WHERE s.id = :serverId', {
        serverId,
      });
      if (!server) {
        throw new NotFoundException('server not found');
      }
      const result = await manager.delete(DeliveryServiceServer, { deliveryServiceId: dsId, serverId });
      if (!result.affected) {
        throw new NotFoundException('Not Found');
      }
    });
  }

  /**
   * GET deliveryservices/{id}/servers/eligible: the delivery service must exist (404) and be within
   * the user's tenancy (403), in that order (docs/original-behaviour.md#deliveryservice-servers).
   */
  async checkEligibleListing(user: CurrentUser, dsId: number): Promise<void> {
    const [ds] = await this.rows<{ tenantId: number | string }>(
      this.dataSource.manager,
      'SELECT ds.tenant_id AS tenantId FROM deliveryservice ds WHERE ds.id = :dsId',
      { dsId },
    );
    if (!ds) {
      throw new NotFoundException(`delivery service ${dsId} not found`);
    }
    await this.tenancy.assertWithinReach(user.tenantId, Number(ds.tenantId));
  }

  /**
   * GET servers/{id}/deliveryservices: 404 for an unknown server; otherwise whether it is an origin
   * (an `ORG` server lists only its own assignments).
   */
  async serverType(serverId: number): Promise<string> {
    const [server] = await this.rows<{ type: string }>(
      this.dataSource.manager,
      'SELECT t.name AS type FROM server s JOIN type t ON t.id = s.type WHERE s.id = :serverId',
      { serverId },
    );
    if (!server) {
      throw new NotFoundException(`server with ID ${serverId} doesn't exist`);
    }
    return server.type;
  }

  /**
   * POST servers/{id}/deliveryservices (docs/original-behaviour.md#deliveryservice-servers): the
   * server (404), then, when delivery services are named, that each exists and is within reach (one
   * 404 for both, as the original does not disclose the others) and shares the server's CDN (409);
   * with `replace`, an ONLINE or REPORTED server must not be the last of its kind in an active
   * delivery service it leaves (409). Then, in the transaction, the server's other assignments go
   * (with `replace`) and the missing pairs are added (docs/decisions.md#d39).
   */
  assignToServer(
    user: CurrentUser,
    serverId: number,
    dsIds: number[],
    replace: boolean,
  ): Promise<ServerAssignmentResult> {
    return this.dataSource.transaction(async (manager) => {
      const lock = lockingClause(this.dataSource, 'write');
      const [row] = await this.rows<Record<string, unknown>>(
        manager,
        'SELECT s.id AS id, s.host_name AS hostName, cg.name AS cachegroup, s.cdn_id AS cdnId, ' +
          'c.name AS cdnName, t.name AS type, st.name AS status FROM server s JOIN cdn c ON c.id = s.cdn_id ' +
          'JOIN type t ON t.id = s.type JOIN status st ON st.id = s.status ' +
          `JOIN cachegroup cg ON cg.id = s.cachegroup WHERE s.id = :serverId${lock}`,
        { serverId },
      );
      if (!row) {
        throw new NotFoundException('no server with that ID found');
      }
      const server: AssigneeServer = {
        id: Number(row.id),
        hostName: String(row.hostName),
        cachegroup: String(row.cachegroup),
        cdnId: Number(row.cdnId),
        cdnName: String(row.cdnName),
        type: String(row.type),
        status: String(row.status),
      };
      if (!server.type.startsWith('ORG')) {
        await this.checkServerHasRequiredCapabilities(manager, server, dsIds);
      }
      if (dsIds.length > 0) {
        await this.checkServerAssignment(manager, user, server, dsIds);
        if (server.type.startsWith('ORG')) {
          await this.checkOriginInTopologies(manager, server, dsIds);
        }
      }
      if (replace && (server.status === 'ONLINE' || server.status === 'REPORTED')) {
        const left = await this.leftWithoutServer(manager, server, dsIds);
        if (left.length > 0) {
          throw new ConflictException(
            leftWithoutServersText(
              'Delivery Service assignment would leave Active Delivery Service',
              server.type,
              left,
            ),
          );
        }
      }
      if (replace) {
        await manager.delete(DeliveryServiceServer, { serverId });
      }
      const ids = [...new Set(dsIds)];
      if (ids.length > 0) {
        await this.execute(
          manager,
          'INSERT INTO deliveryservice_server (deliveryservice, server) ' +
            'SELECT ds.id, :serverId FROM deliveryservice ds WHERE ds.id IN (:...ids) AND NOT EXISTS (' +
            'SELECT 1 FROM deliveryservice_server x WHERE x.deliveryservice = ds.id AND x.server = :serverId)',
          { serverId, ids },
        );
      }
      return { serverId, hostName: server.hostName, dsIds, replace };
    });
  }

  /**
   * POST deliveryservices/{xmlId}/servers (docs/original-behaviour.md#deliveryservice-servers): the
   * delivery service by its xmlId (400 when unknown, 403 out of reach), then the body, then the
   * servers named: of the delivery service's CDN (only ORG servers for a topology-based one), each
   * name matching exactly one server (404 `servers not found` otherwise). Pairs that exist are kept
   * (docs/decisions.md#d39).
   */
  assignByHostNames(
    user: CurrentUser,
    xmlId: string,
    body: DeferredBody<HostNameAssignment>,
  ): Promise<HostNameAssignment & { xmlId: string }> {
    return this.dataSource.transaction(async (manager) => {
      const lock = lockingClause(this.dataSource, 'write');
      const [row] = await this.rows<{ id: number | string }>(
        manager,
        `SELECT ds.id AS id FROM deliveryservice ds WHERE ds.xml_id = :xmlId${lock}`,
        { xmlId },
      );
      if (!row) {
        throw new BadRequestException(`no such deliveryservice: '${xmlId}'`);
      }
      const ds = (await this.deliveryService(manager, Number(row.id)))!;
      if (!(await this.tenancy.isWithinReach(user.tenantId, ds.tenantId, manager))) {
        throw new ForbiddenException('Forbidden');
      }
      const { serverNames } = await body.read();
      const names = serverNames ?? [];
      const servers =
        names.length === 0
          ? []
          : (
              await this.rows<Record<string, unknown>>(
                manager,
                `${SERVER_INFO_COLUMNS} WHERE s.host_name IN (:...names)`,
                { names },
              )
            ).map(toServerInfo);
      await this.checkServersFit(manager, ds, servers);
      await this.checkCapabilities(
        manager,
        ds.id,
        servers.map((s) => s.id),
      );
      if (servers.length !== names.length) {
        throw new NotFoundException('servers not found');
      }
      if (servers.length > 0) {
        await this.execute(
          manager,
          'INSERT INTO deliveryservice_server (deliveryservice, server) ' +
            'SELECT :dsId, s.id FROM server s WHERE s.id IN (:...ids) AND NOT EXISTS (' +
            'SELECT 1 FROM deliveryservice_server x WHERE x.deliveryservice = :dsId AND x.server = s.id)',
          { dsId: ds.id, ids: servers.map((s) => s.id) },
        );
      }
      return { serverNames, xmlId: ds.xmlId };
    });
  }

  /**
   * The delivery services must all exist and be within the user's reach (404 naming none), and be
   * of the server's CDN (409 naming both), checked in the order of the request.
   */
  private async checkServerAssignment(
    manager: EntityManager,
    user: CurrentUser,
    server: AssigneeServer,
    dsIds: number[],
  ): Promise<void> {
    const reachable = tenantCondition('ds.tenant_id', user.tenantId);
    const rows = await this.rows<Record<string, unknown>>(
      manager,
      'SELECT ds.id AS id, ds.xml_id AS xmlId, ds.cdn_id AS cdnId, c.name AS cdnName, ' +
        `CASE WHEN ${reachable.sql} THEN 1 ELSE 0 END AS reachable ` +
        'FROM deliveryservice ds LEFT JOIN cdn c ON c.id = ds.cdn_id WHERE ds.id IN (:...dsIds)',
      { ...reachable.parameters, dsIds },
    );
    const missing = new NotFoundException(
      "Either no Delivery Service ids given, or at least one id doesn't exist!",
    );
    // Like the original, a repeated id counts as one found row short of the list.
    if (rows.length !== dsIds.length) {
      throw missing;
    }
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    for (const id of dsIds) {
      const ds = byId.get(id)!;
      if (Number(ds.reachable) !== 1) {
        throw missing;
      }
      if (Number(ds.cdnId) !== server.cdnId) {
        throw new ConflictException(
          `Delivery Service ${String(ds.xmlId)} (#${id}) is not in the same CDN as server ${server.hostName} ` +
            `(#${server.id}) (server is in ${server.cdnName} (#${server.cdnId}), DS is in ${String(ds.cdnName)} ` +
            `(#${Number(ds.cdnId)}))!`,
        );
      }
    }
  }

  /**
   * The active delivery services the server would leave (those it serves that are not in `keep`)
   * in which it is the only ONLINE or REPORTED server of its kind: an EDGE… server of one without a
   * topology, an ORG… server of one using multi-site origins. Ascending ids.
   */
  private async leftWithoutServer(
    manager: EntityManager,
    server: AssigneeServer,
    keep: number[],
  ): Promise<number[]> {
    const isEdge = server.type.startsWith('EDGE');
    const isOrigin = server.type.startsWith('ORG');
    if (!isEdge && !isOrigin) {
      return [];
    }
    const kind = isEdge ? EDGE_TYPE : ORG_TYPE;
    const rows = await this.rows<Record<string, unknown>>(
      manager,
      'SELECT d.id AS id, d.multi_site_origin AS mso, d.topology AS topology FROM deliveryservice d ' +
        'JOIN deliveryservice_server dss ON dss.deliveryservice = d.id JOIN server s ON s.id = dss.server ' +
        'JOIN status st ON st.id = s.status JOIN type t ON t.id = s.type ' +
        "WHERE d.active = 'ACTIVE' AND d.id IN (SELECT y.deliveryservice FROM deliveryservice_server y " +
        'WHERE y.server = :serverId)' +
        (keep.length > 0 ? ' AND d.id NOT IN (:...keep)' : '') +
        ` AND ${AVAILABLE_STATUS} AND ${kind} ` +
        'GROUP BY d.id, d.multi_site_origin, d.topology HAVING COUNT(dss.server) = 1 ORDER BY d.id',
      { serverId: server.id, keep },
    );
    return rows
      .filter((r) => {
        const mso = Number(r.mso) === 1 || r.mso === true;
        const topology = r.topology as string | null;
        return (isEdge && (topology === null || topology === '')) || (isOrigin && mso);
      })
      .map((r) => Number(r.id));
  }

  /**
   * POST /cachegroups/{id}/deliveryservices (docs/decisions.md#d8): every EDGE… and ORG… server of the
   * cache group is assigned to every listed delivery service with one INSERT … SELECT over the
   * cross product, skipping the pairs that exist. Nothing is written when any check fails.
   */
  assignCachegroup(
    user: CurrentUser,
    cachegroupId: number,
    deliveryServiceIds: number[],
  ): Promise<CachegroupAssignmentResult> {
    return this.dataSource.transaction(async (manager) => {
      const servers = await this.rows<{ hostName: string }>(
        manager,
        'SELECT s.host_name AS hostName FROM server s JOIN type t ON t.id = s.type ' +
          `WHERE s.cachegroup = :cachegroupId AND ${ASSIGNABLE_TYPE} ORDER BY s.host_name, s.id`,
        { cachegroupId },
      );
      if (servers.length === 0) {
        throw new BadRequestException(`no edge or origin servers found on cachegroup ${cachegroupId}`);
      }
      const ids = [...new Set(deliveryServiceIds)];
      if (ids.length > 0) {
        await this.checkCachegroupAssignment(manager, user, cachegroupId, ids);
        await this.execute(
          manager,
          'INSERT INTO deliveryservice_server (deliveryservice, server) ' +
            'SELECT ds.id, s.id FROM deliveryservice ds JOIN server s ON s.cachegroup = :cachegroupId ' +
            `JOIN type t ON t.id = s.type WHERE ds.id IN (:...ids) AND ${ASSIGNABLE_TYPE} AND NOT EXISTS (` +
            'SELECT 1 FROM deliveryservice_server x WHERE x.deliveryservice = ds.id AND x.server = s.id)',
          { cachegroupId, ids },
        );
      }
      return {
        id: cachegroupId,
        serverNames: servers.map((s) => s.hostName),
        deliveryServices: deliveryServiceIds,
      };
    });
  }

  /**
   * The delivery services must exist, be within the user's tenancy, not use a topology, and share
   * their CDN with every server of the cache group, of any type (checked in that order, each in the
   * order of the request). One query answers all four.
   */
  private async checkCachegroupAssignment(
    manager: EntityManager,
    user: CurrentUser,
    cachegroupId: number,
    ids: number[],
  ): Promise<void> {
    const reachable = tenantCondition('ds.tenant_id', user.tenantId);
    const rows = await this.rows<{
      id: number | string;
      tenantId: number | string;
      topology: string | null;
      cdnName: string;
      reachable: number | string;
      cdnMismatch: number | string;
    }>(
      manager,
      'SELECT ds.id AS id, ds.tenant_id AS tenantId, ds.topology AS topology, c.name AS cdnName, ' +
        `CASE WHEN ${reachable.sql} THEN 1 ELSE 0 END AS reachable, ` +
        'CASE WHEN EXISTS (SELECT 1 FROM server s WHERE s.cachegroup = :cachegroupId AND s.cdn_id <> ds.cdn_id) ' +
        'THEN 1 ELSE 0 END AS cdnMismatch ' +
        'FROM deliveryservice ds JOIN cdn c ON c.id = ds.cdn_id WHERE ds.id IN (:...ids)',
      { ...reachable.parameters, cachegroupId, ids },
    );
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    const ordered = ids.map((id) => ({ id, row: byId.get(id) }));
    const missing = ordered.find((ds) => !ds.row);
    if (missing) {
      throw new NotFoundException(`delivery service ${missing.id} not found`);
    }
    const unreachable = ordered.find((ds) => Number(ds.row!.reachable) !== 1);
    if (unreachable) {
      throw new ForbiddenException(
        `not authorized for delivery service tenant ${Number(unreachable.row!.tenantId)}`,
      );
    }
    const withTopology = ordered.filter((ds) => ds.row!.topology !== null && ds.row!.topology !== '');
    if (withTopology.length > 0) {
      throw new BadRequestException(
        `delivery services [${withTopology.map((ds) => ds.id).join(' ')}] are already assigned to a topology`,
      );
    }
    const mismatch = ordered.find((ds) => Number(ds.row!.cdnMismatch) === 1);
    if (mismatch) {
      throw new BadRequestException(
        `servers/deliveryservices do not belong to same cdn '${mismatch.row!.cdnName}'`,
      );
    }
  }

  /**
   * validateDSS: servers of the delivery service's CDN; for a topology-based one, only ORG servers,
   * each in one of the topology's cache groups (listed in the topology's order).
   */
  private async checkServersFit(
    manager: EntityManager,
    ds: DeliveryServiceInfo,
    servers: ServerInfo[],
  ): Promise<void> {
    if (ds.topology === null || ds.topology === '') {
      if (servers.some((s) => s.cdnId !== ds.cdnId)) {
        throw new BadRequestException('server and delivery service CDNs do not match');
      }
      return;
    }
    if (servers.some((s) => s.type !== 'ORG')) {
      throw new BadRequestException(
        'only servers of type ORG may be assigned to topology-based delivery services',
      );
    }
    const cachegroups = (
      await this.rows<{ name: string }>(
        manager,
        'SELECT tc.cachegroup AS name FROM topology_cachegroup tc WHERE tc.topology = :topology ORDER BY tc.id',
        { topology: ds.topology },
      )
    ).map((row) => row.name);
    const outside = servers.filter((s) => !cachegroups.includes(s.cachegroup));
    if (outside.length > 0) {
      throw new BadRequestException(
        `validating ORG servers in topology ${ds.topology}: the following servers are not in any of the ` +
          `given cachegroups (${cachegroups.join(', ')}): ` +
          outside.map((s) => `${s.hostName} (${s.cachegroup})`).join(', '),
      );
    }
  }

  /**
   * POST servers/{id}/deliveryservices, a non-ORG server: it has every capability each named
   * delivery service requires, else 400 naming the first (by id) it lacks one of.
   */
  private async checkServerHasRequiredCapabilities(
    manager: EntityManager,
    server: AssigneeServer,
    dsIds: number[],
  ): Promise<void> {
    if (dsIds.length === 0) {
      return;
    }
    const [lacking] = await this.rows<{ id: number | string }>(
      manager,
      'SELECT drc.deliveryservice_id AS id FROM deliveryservices_required_capability drc ' +
        'LEFT JOIN server_server_capability ssc ON ssc.server = :serverId ' +
        'AND ssc.server_capability = drc.required_capability ' +
        'WHERE drc.deliveryservice_id IN (:...dsIds) AND ssc.server IS NULL ORDER BY drc.deliveryservice_id' +
        lockingClause(this.dataSource, 'share'),
      { serverId: server.id, dsIds },
    );
    if (lacking) {
      const id = Number(lacking.id);
      const required = await this.rows<{ name: string }>(
        manager,
        'SELECT required_capability AS name FROM deliveryservices_required_capability ' +
          'WHERE deliveryservice_id = :id ORDER BY required_capability',
        { id },
      );
      throw new BadRequestException(
        `cache ${server.hostName} cannot assign delivery service ${id} without having the required ` +
          `delivery service capabilities: [${required.map((r) => r.name).join(' ')}]`,
      );
    }
  }

  /**
   * POST servers/{id}/deliveryservices, an ORG server: its cache group is in the topology of each
   * topology-based delivery service named, else 400 naming those (by xmlId) whose topology lacks it.
   */
  private async checkOriginInTopologies(
    manager: EntityManager,
    server: AssigneeServer,
    dsIds: number[],
  ): Promise<void> {
    const invalid = await this.rows<{ xmlId: string; topology: string }>(
      manager,
      'SELECT ds.xml_id AS xmlId, ds.topology AS topology FROM deliveryservice ds ' +
        'WHERE ds.id IN (:...dsIds) AND ds.topology IS NOT NULL AND NOT EXISTS (' +
        'SELECT 1 FROM topology_cachegroup tc WHERE tc.topology = ds.topology AND tc.cachegroup = :cachegroup) ' +
        'ORDER BY ds.xml_id',
      { dsIds, cachegroup: server.cachegroup },
    );
    if (invalid.length > 0) {
      throw new BadRequestException(
        `ORG server cachegroup (${server.cachegroup}) not found in the following topologies: ` +
          invalid.map((ds) => `${ds.topology} (${ds.xmlId})`).join(', '),
      );
    }
  }

  /** validateDSSAssignments: replacing the servers of an active delivery service must leave it served. */
  private async checkStillServed(
    manager: EntityManager,
    ds: DeliveryServiceInfo,
    servers: ServerInfo[],
  ): Promise<void> {
    const leftWithout = new ConflictException(
      `this server assignment leaves Active Delivery Service #${ds.id} without any 'ONLINE' or 'REPORTED' servers`,
    );
    if (servers.length === 0) {
      throw leftWithout;
    }
    const available = servers.filter((s) => s.status === 'ONLINE' || s.status === 'REPORTED');
    if (ds.multiSiteOrigin && !available.some((s) => s.type === 'ORG')) {
      throw new ConflictException(
        `this server assignment leaves Active, MSO-enabled Delivery Service #${ds.id} without any 'ONLINE' or 'REPORTED' ORG servers`,
      );
    }
    const [hasAvailableEdges] = await this.rows(
      manager,
      'SELECT 1 AS found FROM deliveryservice_server dss JOIN server s ON s.id = dss.server ' +
        'JOIN type t ON t.id = s.type JOIN status st ON st.id = s.status ' +
        `WHERE dss.deliveryservice = :dsId AND ${AVAILABLE_STATUS} AND ${EDGE_TYPE} LIMIT 1`,
      { dsId: ds.id },
    );
    const newAvailableEdges = available.some((s) => s.type.startsWith('EDGE'));
    if ((hasAvailableEdges && !newAvailableEdges) || available.length === 0) {
      throw leftWithout;
    }
  }

  /** checkLastAvailableEdgeOrOrigin: an active delivery service keeps an ONLINE/REPORTED edge (and ORG, with MSO). */
  private async checkNotLastAvailable(
    manager: EntityManager,
    ds: DeliveryServiceInfo,
    serverId: number,
  ): Promise<void> {
    const [server] = await this.rows<{ type: string }>(
      manager,
      'SELECT t.name AS type FROM server s JOIN type t ON t.id = s.type WHERE s.id = :serverId',
      { serverId },
    );
    if (!server) {
      return;
    }
    const othersOfKind = async (kind: string): Promise<boolean> => {
      const rows = await this.rows(
        manager,
        'SELECT 1 AS found FROM deliveryservice_server dss JOIN server s ON s.id = dss.server ' +
          'JOIN type t ON t.id = s.type JOIN status st ON st.id = s.status ' +
          `WHERE dss.deliveryservice = :dsId AND dss.server <> :serverId AND ${AVAILABLE_STATUS} AND ${kind} LIMIT 1`,
        { dsId: ds.id, serverId },
      );
      return rows.length > 0;
    };
    const hasTopology = ds.topology !== null && ds.topology !== '';
    if (server.type.startsWith('EDGE') && !hasTopology && !(await othersOfKind(EDGE_TYPE))) {
      throw new ConflictException(
        `removing server #${serverId} from active Delivery Service #${ds.id} would leave it with no REPORTED/ONLINE EDGE servers`,
      );
    }
    if (ds.multiSiteOrigin && server.type.startsWith('ORG') && !(await othersOfKind(ORG_TYPE))) {
      throw new ConflictException(
        `removing server #${serverId} from active, MSO-enabled Delivery Service #${ds.id} would leave it with no REPORTED/ONLINE ORG servers`,
      );
    }
  }

  /** The delivery service, locked for the rest of the transaction on MySQL. */
  private async deliveryService(
    manager: EntityManager,
    id: number,
  ): Promise<DeliveryServiceInfo | undefined> {
    const lock = lockingClause(this.dataSource, 'write');
    const [row] = await this.rows<Record<string, unknown>>(
      manager,
      'SELECT ds.id AS id, ds.xml_id AS xmlId, ds.active AS active, ds.tenant_id AS tenantId, ' +
        'ds.cdn_id AS cdnId, ds.topology AS topology, ds.multi_site_origin AS multiSiteOrigin ' +
        `FROM deliveryservice ds WHERE ds.id = :id${lock}`,
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
      multiSiteOrigin: Number(row.multiSiteOrigin) === 1 || row.multiSiteOrigin === true,
    };
  }

  /**
   * Every EDGE server assigned has each capability the delivery service requires
   * (`deliveryservices_required_capability`, docs/original-behaviour.md#deliveryservices-required-capabilities),
   * else 400 naming the first that lacks one. A locking read, so no capability goes in between.
   */
  private async checkCapabilities(manager: EntityManager, dsId: number, ids: number[]): Promise<void> {
    if (ids.length === 0) {
      return;
    }
    const [lacking] = await this.rows<{ hostName: string }>(
      manager,
      'SELECT s.host_name AS hostName FROM server s JOIN type t ON t.id = s.type ' +
        'JOIN deliveryservices_required_capability drc ON drc.deliveryservice_id = :dsId ' +
        'LEFT JOIN server_server_capability ssc ON ssc.server = s.id AND ssc.server_capability = drc.required_capability ' +
        `WHERE s.id IN (:...ids) AND ${EDGE_TYPE} AND ssc.server IS NULL ORDER BY s.id` +
        lockingClause(this.dataSource, 'share'),
      { dsId, ids },
    );
    if (lacking) {
      const required = await this.rows<{ name: string }>(
        manager,
        'SELECT required_capability AS name FROM deliveryservices_required_capability ' +
          'WHERE deliveryservice_id = :dsId ORDER BY required_capability',
        { dsId },
      );
      throw new BadRequestException(
        `the cache ${lacking.hostName} cannot be assigned to this delivery service without having the ` +
          `required delivery service capabilities: [${required.map((r) => r.name).join(' ')}]`,
      );
    }
  }

  private async servers(manager: EntityManager, ids: number[]): Promise<ServerInfo[]> {
    if (ids.length === 0) {
      return [];
    }
    const rows = await this.rows<Record<string, unknown>>(
      manager,
      `${SERVER_INFO_COLUMNS} WHERE s.id IN (:...ids)`,
      { ids },
    );
    return rows.map(toServerInfo);
  }

  /** A statement with named parameters (`:name`, `:...list`), bound by the driver. */
  private async rows<T extends ObjectLiteral = ObjectLiteral>(
    manager: EntityManager,
    sql: string,
    parameters: ObjectLiteral,
  ): Promise<T[]> {
    const [query, bound] = bindParameters(this.dataSource, sql, parameters, {});
    return manager.query<T[]>(query, bound);
  }

  private async execute(manager: EntityManager, sql: string, parameters: ObjectLiteral): Promise<void> {
    const [query, bound] = bindParameters(this.dataSource, sql, parameters, {});
    await manager.query(query, bound);
  }
}
