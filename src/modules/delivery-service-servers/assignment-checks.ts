import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  NotFoundException,
} from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { lockingClause } from 'src/common/database/locks';
import type { CurrentUser } from 'src/common/types/current-user';
import { tenantCondition } from 'src/modules/tenants/tenants.repository';
import {
  type AssigneeServer,
  AVAILABLE_STATUS,
  type DeliveryServiceInfo,
  EDGE_TYPE,
  ORG_TYPE,
  queryRows,
  type ServerInfo,
} from './assignment-queries';

/*
 * The rules of server ↔ delivery service assignments, in the original's words and order; each
 * takes the transaction's EntityManager. Every statement is set-based.
 */

/**
 * The delivery services must all exist and be within the user's reach (404 naming none), and be
 * of the server's CDN (409 naming both), checked in the order of the request.
 */
export async function checkServerAssignment(
  dataSource: DataSource,
  manager: EntityManager,
  user: CurrentUser,
  server: AssigneeServer,
  dsIds: number[],
): Promise<void> {
  const reachable = tenantCondition('ds.tenant_id', user.tenantId);
  const rows = await queryRows<Record<string, unknown>>(
    dataSource,
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
export async function leftWithoutServer(
  dataSource: DataSource,
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
  const rows = await queryRows<Record<string, unknown>>(
    dataSource,
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
 * The delivery services must exist, be within the user's tenancy, not use a topology, and share
 * their CDN with every server of the cache group, of any type (checked in that order, each in the
 * order of the request). One query answers all four.
 */
export async function checkCachegroupAssignment(
  dataSource: DataSource,
  manager: EntityManager,
  user: CurrentUser,
  cachegroupId: number,
  ids: number[],
): Promise<void> {
  const reachable = tenantCondition('ds.tenant_id', user.tenantId);
  const rows = await queryRows<{
    id: number | string;
    tenantId: number | string;
    topology: string | null;
    cdnName: string;
    reachable: number | string;
    cdnMismatch: number | string;
  }>(
    dataSource,
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
export async function checkServersFit(
  dataSource: DataSource,
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
    await queryRows<{ name: string }>(
      dataSource,
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
export async function checkServerHasRequiredCapabilities(
  dataSource: DataSource,
  manager: EntityManager,
  server: AssigneeServer,
  dsIds: number[],
): Promise<void> {
  if (dsIds.length === 0) {
    return;
  }
  const [lacking] = await queryRows<{ id: number | string }>(
    dataSource,
    manager,
    'SELECT drc.deliveryservice_id AS id FROM deliveryservices_required_capability drc ' +
      'LEFT JOIN server_server_capability ssc ON ssc.server = :serverId ' +
      'AND ssc.server_capability = drc.required_capability ' +
      'WHERE drc.deliveryservice_id IN (:...dsIds) AND ssc.server IS NULL ORDER BY drc.deliveryservice_id' +
      lockingClause(dataSource, 'share'),
    { serverId: server.id, dsIds },
  );
  if (lacking) {
    const id = Number(lacking.id);
    const required = await queryRows<{ name: string }>(
      dataSource,
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
export async function checkOriginInTopologies(
  dataSource: DataSource,
  manager: EntityManager,
  server: AssigneeServer,
  dsIds: number[],
): Promise<void> {
  const invalid = await queryRows<{ xmlId: string; topology: string }>(
    dataSource,
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
export async function checkStillServed(
  dataSource: DataSource,
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
  const [hasAvailableEdges] = await queryRows(
    dataSource,
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
export async function checkNotLastAvailable(
  dataSource: DataSource,
  manager: EntityManager,
  ds: DeliveryServiceInfo,
  serverId: number,
): Promise<void> {
  const [server] = await queryRows<{ type: string }>(
    dataSource,
    manager,
    'SELECT t.name AS type FROM server s JOIN type t ON t.id = s.type WHERE s.id = :serverId',
    { serverId },
  );
  if (!server) {
    return;
  }
  const othersOfKind = async (kind: string): Promise<boolean> => {
    const rows = await queryRows(
      dataSource,
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

/**
 * Every EDGE server assigned has each capability the delivery service requires
 * (`deliveryservices_required_capability`, docs/original-behaviour.md#deliveryservices-required-capabilities),
 * else 400 naming the first that lacks one. A locking read, so no capability goes in between.
 */
export async function checkCapabilities(
  dataSource: DataSource,
  manager: EntityManager,
  dsId: number,
  ids: number[],
): Promise<void> {
  if (ids.length === 0) {
    return;
  }
  const [lacking] = await queryRows<{ hostName: string }>(
    dataSource,
    manager,
    'SELECT s.host_name AS hostName FROM server s JOIN type t ON t.id = s.type ' +
      'JOIN deliveryservices_required_capability drc ON drc.deliveryservice_id = :dsId ' +
      'LEFT JOIN server_server_capability ssc ON ssc.server = s.id AND ssc.server_capability = drc.required_capability ' +
      `WHERE s.id IN (:...ids) AND ${EDGE_TYPE} AND ssc.server IS NULL ORDER BY s.id` +
      lockingClause(dataSource, 'share'),
    { dsId, ids },
  );
  if (lacking) {
    const required = await queryRows<{ name: string }>(
      dataSource,
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
