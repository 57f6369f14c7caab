import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  NotFoundException,
} from '@nestjs/common';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import type { CurrentUser } from 'src/common/types/current-user';
import type { AssigneeServer, DeliveryServiceInfo, ServerInfo } from './assignment-rows';
import type { DeliveryServiceServersRepository } from './delivery-service-servers.repository';

/*
 * The rules of server ↔ delivery service assignments, in the original's words and order; each
 * reads through the module's repository on the transaction's manager. Every statement is set-based.
 */

/**
 * The delivery services must all exist and be within the user's reach (404 naming none), and be
 * of the server's CDN (409 naming both), checked in the order of the request.
 */
export async function checkServerAssignment(
  assignments: DeliveryServiceServersRepository,
  manager: TransactionManager,
  user: CurrentUser,
  server: AssigneeServer,
  dsIds: number[],
): Promise<void> {
  const rows = await assignments.namedDeliveryServices(manager, user.tenantId, dsIds);
  const missing = new NotFoundException(
    "Either no Delivery Service ids given, or at least one id doesn't exist!",
  );
  // Like the original, a repeated id counts as one found row short of the list.
  if (rows.length !== dsIds.length) {
    throw missing;
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of dsIds) {
    const ds = byId.get(id)!;
    if (!ds.reachable) {
      throw missing;
    }
    if (ds.cdnId !== server.cdnId) {
      throw new ConflictException(
        `Delivery Service ${ds.xmlId} (#${id}) is not in the same CDN as server ${server.hostName} ` +
          `(#${server.id}) (server is in ${server.cdnName} (#${server.cdnId}), DS is in ${String(ds.cdnName)} ` +
          `(#${ds.cdnId}))!`,
      );
    }
  }
}

/**
 * The active delivery services the server would leave (those it serves that are not in `keep`)
 * in which it is the only ONLINE or REPORTED server of its kind: an EDGE… server of one without a
 * topology, an ORG… server of one using multi-site origins. Ascending ids.
 */
export async function leftWithoutServer(
  assignments: DeliveryServiceServersRepository,
  manager: TransactionManager,
  server: AssigneeServer,
  keep: number[],
): Promise<number[]> {
  const isEdge = server.type.startsWith('EDGE');
  const isOrigin = server.type.startsWith('ORG');
  if (!isEdge && !isOrigin) {
    return [];
  }
  const rows = await assignments.servedOnlyBy(manager, server.id, isEdge ? 'EDGE' : 'ORG', keep);
  return rows
    .filter((r) => (isEdge && (r.topology === null || r.topology === '')) || (isOrigin && r.multiSiteOrigin))
    .map((r) => r.id);
}

/**
 * The delivery services must exist, be within the user's tenancy, not use a topology, and share
 * their CDN with every server of the cache group, of any type (checked in that order, each in the
 * order of the request). One query answers all four.
 */
export async function checkCachegroupAssignment(
  assignments: DeliveryServiceServersRepository,
  manager: TransactionManager,
  user: CurrentUser,
  cachegroupId: number,
  ids: number[],
): Promise<void> {
  const rows = await assignments.cachegroupDeliveryServices(manager, user.tenantId, cachegroupId, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = ids.map((id) => ({ id, row: byId.get(id) }));
  const missing = ordered.find((ds) => !ds.row);
  if (missing) {
    throw new NotFoundException(`delivery service ${missing.id} not found`);
  }
  const unreachable = ordered.find((ds) => !ds.row!.reachable);
  if (unreachable) {
    throw new ForbiddenException(`not authorized for delivery service tenant ${unreachable.row!.tenantId}`);
  }
  const withTopology = ordered.filter((ds) => ds.row!.topology !== null && ds.row!.topology !== '');
  if (withTopology.length > 0) {
    throw new BadRequestException(
      `delivery services [${withTopology.map((ds) => ds.id).join(' ')}] are already assigned to a topology`,
    );
  }
  const mismatch = ordered.find((ds) => ds.row!.cdnMismatch);
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
export async function checkServersFit(
  assignments: DeliveryServiceServersRepository,
  manager: TransactionManager,
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
  const cachegroups = await assignments.topologyCachegroups(manager, ds.topology);
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
export async function checkServerHasRequiredCapabilities(
  assignments: DeliveryServiceServersRepository,
  manager: TransactionManager,
  server: AssigneeServer,
  dsIds: number[],
): Promise<void> {
  if (dsIds.length === 0) {
    return;
  }
  const id = await assignments.firstRequiringMore(manager, server.id, dsIds);
  if (id !== undefined) {
    const required = await assignments.requiredCapabilities(manager, id);
    throw new BadRequestException(
      `cache ${server.hostName} cannot assign delivery service ${id} without having the required ` +
        `delivery service capabilities: [${required.join(' ')}]`,
    );
  }
}

/**
 * POST servers/{id}/deliveryservices, an ORG server: its cache group is in the topology of each
 * topology-based delivery service named, else 400 naming those (by xmlId) whose topology lacks it.
 */
export async function checkOriginInTopologies(
  assignments: DeliveryServiceServersRepository,
  manager: TransactionManager,
  server: AssigneeServer,
  dsIds: number[],
): Promise<void> {
  const invalid = await assignments.topologiesWithout(manager, dsIds, server.cachegroup);
  if (invalid.length > 0) {
    throw new BadRequestException(
      `ORG server cachegroup (${server.cachegroup}) not found in the following topologies: ` +
        invalid.map((ds) => `${ds.topology} (${ds.xmlId})`).join(', '),
    );
  }
}

/** validateDSSAssignments: replacing the servers of an active delivery service must leave it served. */
export async function checkStillServed(
  assignments: DeliveryServiceServersRepository,
  manager: TransactionManager,
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
  const hasAvailableEdges = await assignments.hasAvailable(manager, ds.id, 'EDGE');
  const newAvailableEdges = available.some((s) => s.type.startsWith('EDGE'));
  if ((hasAvailableEdges && !newAvailableEdges) || available.length === 0) {
    throw leftWithout;
  }
}

/** checkLastAvailableEdgeOrOrigin: an active delivery service keeps an ONLINE/REPORTED edge (and ORG, with MSO). */
export async function checkNotLastAvailable(
  assignments: DeliveryServiceServersRepository,
  manager: TransactionManager,
  ds: DeliveryServiceInfo,
  serverId: number,
): Promise<void> {
  const type = await assignments.serverType(serverId, manager);
  if (type === undefined) {
    return;
  }
  const othersOfKind = (kind: 'EDGE' | 'ORG') => assignments.hasAvailable(manager, ds.id, kind, serverId);
  const hasTopology = ds.topology !== null && ds.topology !== '';
  if (type.startsWith('EDGE') && !hasTopology && !(await othersOfKind('EDGE'))) {
    throw new ConflictException(
      `removing server #${serverId} from active Delivery Service #${ds.id} would leave it with no REPORTED/ONLINE EDGE servers`,
    );
  }
  if (ds.multiSiteOrigin && type.startsWith('ORG') && !(await othersOfKind('ORG'))) {
    throw new ConflictException(
      `removing server #${serverId} from active, MSO-enabled Delivery Service #${ds.id} would leave it with no REPORTED/ONLINE ORG servers`,
    );
  }
}

/**
 * Every EDGE server assigned has each capability the delivery service requires
 * (`deliveryservices_required_capability`, docs/original-behaviour.md#deliveryservices-required-capabilities),
 * else 400 naming the first that lacks one. A locking read, so no capability goes in between.
 */
export async function checkCapabilities(
  assignments: DeliveryServiceServersRepository,
  manager: TransactionManager,
  dsId: number,
  ids: number[],
): Promise<void> {
  if (ids.length === 0) {
    return;
  }
  const lacking = await assignments.firstEdgeLacking(manager, dsId, ids);
  if (lacking !== undefined) {
    const required = await assignments.requiredCapabilities(manager, dsId);
    throw new BadRequestException(
      `the cache ${lacking} cannot be assigned to this delivery service without having the ` +
        `required delivery service capabilities: [${required.join(' ')}]`,
    );
  }
}
