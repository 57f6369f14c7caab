import { leftWithoutServersText } from 'src/modules/servers/server-rules';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import { withinTenancy } from 'src/modules/tenants/tenants.repository';
import { DeliveryServiceServer } from './delivery-service-server.entity';
import type { HostNameAssignment, ServerAssignment } from './dto/assignment.dto';
import type { DeferredBody } from 'src/common/validation/valid-body';
import type { AssignmentRow } from './dto/delivery-service-server.response';
import { lockingClause } from 'src/common/database/locks';
import {
  checkCachegroupAssignment,
  checkCapabilities,
  checkNotLastAvailable,
  checkOriginInTopologies,
  checkServerAssignment,
  checkServerHasRequiredCapabilities,
  checkServersFit,
  checkStillServed,
  leftWithoutServer,
} from './assignment-checks';
import {
  ASSIGNABLE_TYPE,
  type AssigneeServer,
  deliveryServiceInfo,
  executeSql,
  queryRows,
  SERVER_INFO_COLUMNS,
  serverInfos,
  toServerInfo,
} from './assignment-queries';
import { UnitOfWork } from 'src/common/database/unit-of-work';

/** What POST servers/{id}/deliveryservices answers (lib/go-tc AssignedDsResponse), with the server's name. */
export interface ServerAssignmentResult {
  serverId: number;
  hostName: string;
  dsIds: number[];
  replace: boolean;
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
    private readonly unitOfWork: UnitOfWork,
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
    return this.unitOfWork.run(async (manager) => {
      const ds = await deliveryServiceInfo(this.dataSource, manager, body.dsId);
      if (!ds) {
        throw new BadRequestException('no delivery service with that ID exists');
      }
      await this.tenancy.assertWithinReach(user.tenantId, ds.tenantId, manager);
      const ids = [...new Set(body.servers)];
      const servers = await serverInfos(this.dataSource, manager, ids);
      await checkServersFit(this.dataSource, manager, ds, servers);
      if (ds.active === 'ACTIVE' && body.replace) {
        await checkStillServed(this.dataSource, manager, ds, servers);
      }
      await checkCapabilities(this.dataSource, manager, ds.id, ids);
      if (servers.length < ids.length) {
        throw new NotFoundException('server not found');
      }
      if (body.replace) {
        await manager.delete(DeliveryServiceServer, { deliveryServiceId: ds.id });
      }
      if (ids.length > 0) {
        await executeSql(
          this.dataSource,
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
    return this.unitOfWork.run(async (manager) => {
      const ds = await deliveryServiceInfo(this.dataSource, manager, dsId);
      if (!ds) {
        throw new NotFoundException(`no such Delivery Service: #${dsId}`);
      }
      await this.tenancy.assertWithinReach(user.tenantId, ds.tenantId, manager);
      if (ds.active === 'ACTIVE') {
        await checkNotLastAvailable(this.dataSource, manager, ds, serverId);
      }
      const [server] = await queryRows(
        this.dataSource,
        manager,
        'SELECT s.id FROM server s WHERE s.id = :serverId',
        {
          serverId,
        },
      );
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
    const [ds] = await queryRows<{ tenantId: number | string }>(
      this.dataSource,
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
    const [server] = await queryRows<{ type: string }>(
      this.dataSource,
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
    return this.unitOfWork.run(async (manager) => {
      const lock = lockingClause(this.dataSource, 'write');
      const [row] = await queryRows<Record<string, unknown>>(
        this.dataSource,
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
        await checkServerHasRequiredCapabilities(this.dataSource, manager, server, dsIds);
      }
      if (dsIds.length > 0) {
        await checkServerAssignment(this.dataSource, manager, user, server, dsIds);
        if (server.type.startsWith('ORG')) {
          await checkOriginInTopologies(this.dataSource, manager, server, dsIds);
        }
      }
      if (replace && (server.status === 'ONLINE' || server.status === 'REPORTED')) {
        const left = await leftWithoutServer(this.dataSource, manager, server, dsIds);
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
        await executeSql(
          this.dataSource,
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
    return this.unitOfWork.run(async (manager) => {
      const lock = lockingClause(this.dataSource, 'write');
      const [row] = await queryRows<{ id: number | string }>(
        this.dataSource,
        manager,
        `SELECT ds.id AS id FROM deliveryservice ds WHERE ds.xml_id = :xmlId${lock}`,
        { xmlId },
      );
      if (!row) {
        throw new BadRequestException(`no such deliveryservice: '${xmlId}'`);
      }
      const ds = (await deliveryServiceInfo(this.dataSource, manager, Number(row.id)))!;
      if (!(await this.tenancy.isWithinReach(user.tenantId, ds.tenantId, manager))) {
        throw new ForbiddenException('Forbidden');
      }
      const { serverNames } = await body.read();
      const names = serverNames ?? [];
      const servers =
        names.length === 0
          ? []
          : (
              await queryRows<Record<string, unknown>>(
                this.dataSource,
                manager,
                `${SERVER_INFO_COLUMNS} WHERE s.host_name IN (:...names)`,
                { names },
              )
            ).map(toServerInfo);
      await checkServersFit(this.dataSource, manager, ds, servers);
      await checkCapabilities(
        this.dataSource,
        manager,
        ds.id,
        servers.map((s) => s.id),
      );
      if (servers.length !== names.length) {
        throw new NotFoundException('servers not found');
      }
      if (servers.length > 0) {
        await executeSql(
          this.dataSource,
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
   * POST /cachegroups/{id}/deliveryservices (docs/decisions.md#d8): every EDGE… and ORG… server of the
   * cache group is assigned to every listed delivery service with one INSERT … SELECT over the
   * cross product, skipping the pairs that exist. Nothing is written when any check fails.
   */
  assignCachegroup(
    user: CurrentUser,
    cachegroupId: number,
    deliveryServiceIds: number[],
  ): Promise<CachegroupAssignmentResult> {
    return this.unitOfWork.run(async (manager) => {
      const servers = await queryRows<{ hostName: string }>(
        this.dataSource,
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
        await checkCachegroupAssignment(this.dataSource, manager, user, cachegroupId, ids);
        await executeSql(
          this.dataSource,
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
}
