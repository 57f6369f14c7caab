import { BadRequestException, ConflictException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { groupBy } from 'src/common/database/plain-rows';
import { canonicalInet } from 'src/common/net/inet';
import { leftWithoutServersText } from './server-rules';

/**
 * The rules that keep delivery services served when a server changes status, moves or goes
 * (servers.go getActiveDeliveryServicesThatOnlyHaveThisServerAssigned, CheckForEmptyCacheGroups).
 * Each runs inside the write's transaction, after the server row was write-locked.
 */

/**
 * The active delivery services for which the server is the only assigned EDGE… server (those
 * without a topology) or the only assigned ORG… server (multi-site origins), by id.
 */
export async function activeDeliveryServicesOnlyServedBy(
  manager: EntityManager,
  server: { id: number; type: string },
): Promise<number[]> {
  const isEdge = server.type.startsWith('EDGE');
  const isOrigin = server.type.startsWith('ORG');
  if (!isEdge && !isOrigin) {
    return [];
  }
  const prefix = isEdge ? 'EDGE' : 'ORG';
  const rows = await manager.query<Record<string, unknown>[]>(
    'SELECT ds.id AS id, ds.multi_site_origin AS mso, ds.topology AS topology FROM deliveryservice_server dss ' +
      'JOIN server s ON s.id = dss.server JOIN type t ON t.id = s.type ' +
      'JOIN deliveryservice ds ON ds.id = dss.deliveryservice ' +
      "WHERE SUBSTR(t.name, 1, ?) = ? AND ds.active = 'ACTIVE' " +
      'GROUP BY ds.id, ds.multi_site_origin, ds.topology ' +
      'HAVING COUNT(dss.server) = 1 AND MAX(dss.server) = ? ORDER BY ds.id',
    [prefix.length, prefix, server.id],
  );
  return rows
    .filter((r) => {
      const mso = Number(r.mso) === 1 || r.mso === true;
      return (isEdge && (r.topology === null || r.topology === undefined)) || (isOrigin && mso);
    })
    .map((r) => Number(r.id));
}

/**
 * Whether taking the server out of its cache group (deleting it, or moving it to another cache
 * group or CDN) would leave a cache group used by a topology without servers, or without servers of
 * the server's CDN when delivery services of that CDN use one of its topologies. Answers the
 * original's text after its prefix, or undefined.
 */
export async function emptiedTopologyCachegroup(
  manager: EntityManager,
  server: { id: number; cachegroupId: number; cdnId: number },
): Promise<string | undefined> {
  const rows = await manager.query<
    { cachegroup: string; topology: string; cdn: number | string | null; n: number | string }[]
  >(
    'SELECT c.name AS cachegroup, tc.topology AS topology, s.cdn_id AS cdn, COUNT(s.id) AS n FROM cachegroup c ' +
      'JOIN topology_cachegroup tc ON tc.cachegroup = c.name ' +
      'LEFT JOIN server s ON s.cachegroup = c.id AND s.id <> ? ' +
      'WHERE c.id = ? GROUP BY c.name, tc.topology, s.cdn_id ORDER BY tc.topology',
    [server.id, server.cachegroupId],
  );
  if (rows.length === 0) {
    return undefined;
  }
  const name = rows[0].cachegroup;
  if (rows.every((row) => Number(row.n) === 0)) {
    const topologies = [...new Set(rows.map((row) => row.topology))];
    return `cachegroups with no servers in them: ${name} (in topologies: ${topologies.join(', ')})`;
  }
  const [used] = await manager.query<unknown[]>(
    'SELECT 1 AS one FROM topology_cachegroup tc JOIN deliveryservice d ON d.topology = tc.topology ' +
      'WHERE tc.cachegroup = ? AND d.cdn_id = ? LIMIT 1',
    [name, server.cdnId],
  );
  if (
    !used ||
    rows.some((row) => row.cdn !== null && Number(row.cdn) === server.cdnId && Number(row.n) > 0)
  ) {
    return undefined;
  }
  return (
    `topology is assigned to delivery service(s) on CDN ${server.cdnId}, but the following cachegroups ` +
    `have no servers in CDN ${server.cdnId}: ${name}`
  );
}

/** The service addresses of a server's interfaces, in their stored (canonical) form. */
export function serviceAddressesOf(
  interfaces: { ipAddresses: { address: string; serviceAddress: boolean }[] }[],
): string[] {
  return interfaces.flatMap((iface) =>
    iface.ipAddresses.filter((ip) => ip.serviceAddress).map((ip) => canonicalInet(ip.address)),
  );
}

/**
 * No other server with the same profiles, in the same order, has one of the server's service
 * addresses (400 `there exists a server with id <n> on the same profile that has the same service
 * address <a>`). The profiles' rows are locked first (`lock`, the database's locking clause), so two
 * writes with the same profiles take their turns and neither misses the other's address.
 */
export async function assertServiceAddressesFree(
  manager: EntityManager,
  service: string[],
  profiles: { id: number }[],
  lock: string,
  serverId?: number,
): Promise<void> {
  const profileIds = profiles.map((p) => p.id);
  if (service.length === 0 || profileIds.length === 0) {
    return;
  }
  await manager.query(
    `SELECT id FROM profile WHERE id IN (${profileIds.map(() => '?').join(', ')}) ORDER BY id${lock}`,
    profileIds,
  );
  const holders = await manager.query<{ server: number | string; address: string }[]>(
    `SELECT ip.server AS server, ip.address AS address FROM ip_address ip ` +
      `WHERE ip.address IN (${service.map(() => '?').join(', ')}) AND ip.server <> ? ORDER BY ip.server, ip.id`,
    [...service, serverId ?? 0],
  );
  if (holders.length === 0) {
    return;
  }
  const ids = [...new Set(holders.map((h) => Number(h.server)))];
  const links = await manager.query<{ server: number | string; profile: number | string }[]>(
    `SELECT server, profile FROM server_profile WHERE server IN (${ids.map(() => '?').join(', ')}) ` +
      'ORDER BY server, priority',
    ids,
  );
  const profilesOf = groupBy(links, (link) => Number(link.server));
  const same = (id: number) =>
    (profilesOf.get(id) ?? []).map((link) => Number(link.profile)).join(',') === profileIds.join(',');
  const problems = holders
    .filter((holder) => same(Number(holder.server)))
    .map(
      (holder) =>
        `there exists a server with id ${Number(holder.server)} on the same profile that has the same service address ${holder.address}`,
    );
  if (problems.length > 0) {
    throw new BadRequestException(problems.join(', '));
  }
}

/**
 * A server that moves to another cache group or CDN may not leave its topology cache group empty
 * (400); one whose status becomes other than ONLINE or REPORTED may not be the only EDGE (or
 * multi-site ORG) server of an active delivery service (409). The original's order and texts.
 */
export async function assertStillServing(
  manager: EntityManager,
  existing: { id: number; cachegroupId: number; cdnId: number; statusId: number; typeId: number },
  wanted: { cachegroupId: number; cdnId: number; statusId: number },
): Promise<void> {
  if (wanted.cachegroupId !== existing.cachegroupId || wanted.cdnId !== existing.cdnId) {
    const emptied = await emptiedTopologyCachegroup(manager, existing);
    if (emptied) {
      throw new BadRequestException(
        'server is the last one in its Cache Group, which is used by a Topology, so it cannot be moved ' +
          `to another Cache Group: ${emptied}`,
      );
    }
  }
  if (wanted.statusId === existing.statusId) {
    return;
  }
  const [status] = await manager.query<{ name: string }[]>('SELECT name FROM status WHERE id = ?', [
    wanted.statusId,
  ]);
  if (!status || status.name === 'ONLINE' || status.name === 'REPORTED') {
    return;
  }
  const [type] = await manager.query<{ name: string }[]>('SELECT name FROM type WHERE id = ?', [
    existing.typeId,
  ]);
  const left = await activeDeliveryServicesOnlyServedBy(manager, { id: existing.id, type: type.name });
  if (left.length > 0) {
    throw new ConflictException(
      leftWithoutServersText(
        `setting server status to '${status.name}' would leave Active Delivery Service`,
        type.name,
        left,
      ),
    );
  }
}
