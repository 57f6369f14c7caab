import { leftWithoutServersText } from 'src/modules/servers/server-rules';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { CurrentUser } from 'src/common/types/current-user';
import type { DeferredBody } from 'src/common/validation/valid-body';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import type { HostNameAssignment, ServerAssignment } from './dto/assignment.dto';
import type { AssignmentRow } from './dto/delivery-service-server.response';
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
import { DeliveryServiceServersRepository } from './delivery-service-servers.repository';

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
    private readonly assignments: DeliveryServiceServersRepository,
    private readonly tenancy: TenancyService,
  ) {}

  /** One page of the assignments of delivery services within the user's tenancy. */
  list(
    user: CurrentUser,
    query: ListQuery,
    ids: { deliveryServices: number[]; servers: number[] },
  ): Promise<AssignmentRow[]> {
    return this.assignments.list(user.tenantId, query, ids);
  }

  /**
   * POST /deliveryserviceserver: assigns `servers` to the delivery service, first removing its other
   * assignments when `replace` is set. Checks in the original's order: the delivery service, its
   * tenancy, the servers' CDN (and type, for a topology-based one), the rules that keep an active
   * delivery service served, then the servers' existence.
   */
  replace(user: CurrentUser, body: ServerAssignment): Promise<ServerAssignment> {
    return this.unitOfWork.run(async (manager) => {
      const ds = await this.assignments.lockedDeliveryService(manager, body.dsId);
      if (!ds) {
        throw new BadRequestException('no delivery service with that ID exists');
      }
      await this.tenancy.assertWithinReach(user.tenantId, ds.tenantId, manager);
      const ids = [...new Set(body.servers)];
      const servers = await this.assignments.servers(manager, { ids });
      await checkServersFit(this.assignments, manager, ds, servers);
      if (ds.active === 'ACTIVE' && body.replace) {
        await checkStillServed(this.assignments, manager, ds, servers);
      }
      await checkCapabilities(this.assignments, manager, ds.id, ids);
      if (servers.length < ids.length) {
        throw new NotFoundException('server not found');
      }
      if (body.replace) {
        await this.assignments.remove(manager, { deliveryServiceId: ds.id });
      }
      if (ids.length > 0) {
        await this.assignments.addServers(manager, ds.id, ids);
      }
      return body;
    });
  }

  /** DELETE /deliveryserviceserver/{dsId}/{serverId}, with the original's checks and texts. */
  unassign(user: CurrentUser, dsId: number, serverId: number): Promise<void> {
    return this.unitOfWork.run(async (manager) => {
      const ds = await this.assignments.lockedDeliveryService(manager, dsId);
      if (!ds) {
        throw new NotFoundException(`no such Delivery Service: #${dsId}`);
      }
      await this.tenancy.assertWithinReach(user.tenantId, ds.tenantId, manager);
      if (ds.active === 'ACTIVE') {
        await checkNotLastAvailable(this.assignments, manager, ds, serverId);
      }
      if (!(await this.assignments.serverExists(manager, serverId))) {
        throw new NotFoundException('server not found');
      }
      if (!(await this.assignments.remove(manager, { deliveryServiceId: dsId, serverId }))) {
        throw new NotFoundException('Not Found');
      }
    });
  }

  /**
   * GET deliveryservices/{id}/servers/eligible: the delivery service must exist (404) and be within
   * the user's tenancy (403), in that order (docs/original-behaviour.md#deliveryservice-servers).
   */
  async checkEligibleListing(user: CurrentUser, dsId: number): Promise<void> {
    const tenantId = await this.assignments.deliveryServiceTenant(dsId);
    if (tenantId === undefined) {
      throw new NotFoundException(`delivery service ${dsId} not found`);
    }
    await this.tenancy.assertWithinReach(user.tenantId, tenantId);
  }

  /**
   * GET servers/{id}/deliveryservices: 404 for an unknown server; otherwise whether it is an origin
   * (an `ORG` server lists only its own assignments).
   */
  async serverType(serverId: number): Promise<string> {
    const type = await this.assignments.serverType(serverId);
    if (type === undefined) {
      throw new NotFoundException(`server with ID ${serverId} doesn't exist`);
    }
    return type;
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
      const server = await this.assignments.lockedAssigneeServer(manager, serverId);
      if (!server) {
        throw new NotFoundException('no server with that ID found');
      }
      if (!server.type.startsWith('ORG')) {
        await checkServerHasRequiredCapabilities(this.assignments, manager, server, dsIds);
      }
      if (dsIds.length > 0) {
        await checkServerAssignment(this.assignments, manager, user, server, dsIds);
        if (server.type.startsWith('ORG')) {
          await checkOriginInTopologies(this.assignments, manager, server, dsIds);
        }
      }
      if (replace && (server.status === 'ONLINE' || server.status === 'REPORTED')) {
        const left = await leftWithoutServer(this.assignments, manager, server, dsIds);
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
        await this.assignments.remove(manager, { serverId });
      }
      const ids = [...new Set(dsIds)];
      if (ids.length > 0) {
        await this.assignments.addDeliveryServices(manager, serverId, ids);
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
      const dsId = await this.assignments.lockedDeliveryServiceId(manager, xmlId);
      if (dsId === undefined) {
        throw new BadRequestException(`no such deliveryservice: '${xmlId}'`);
      }
      const ds = (await this.assignments.lockedDeliveryService(manager, dsId))!;
      if (!(await this.tenancy.isWithinReach(user.tenantId, ds.tenantId, manager))) {
        throw new ForbiddenException('Forbidden');
      }
      const { serverNames } = await body.read();
      const names = serverNames ?? [];
      const servers = await this.assignments.servers(manager, { names });
      await checkServersFit(this.assignments, manager, ds, servers);
      await checkCapabilities(
        this.assignments,
        manager,
        ds.id,
        servers.map((s) => s.id),
      );
      if (servers.length !== names.length) {
        throw new NotFoundException('servers not found');
      }
      if (servers.length > 0) {
        await this.assignments.addServers(
          manager,
          ds.id,
          servers.map((s) => s.id),
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
      const serverNames = await this.assignments.assignableHostNames(manager, cachegroupId);
      if (serverNames.length === 0) {
        throw new BadRequestException(`no edge or origin servers found on cachegroup ${cachegroupId}`);
      }
      const ids = [...new Set(deliveryServiceIds)];
      if (ids.length > 0) {
        await checkCachegroupAssignment(this.assignments, manager, user, cachegroupId, ids);
        await this.assignments.addCachegroup(manager, cachegroupId, ids);
      }
      return {
        id: cachegroupId,
        serverNames,
        deliveryServices: deliveryServiceIds,
      };
    });
  }
}
