import { BadRequestException, ConflictException } from '@nestjs/common';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import { canonicalInet } from 'src/common/net/inet';
import { leftWithoutServersText } from './server-rules';
import type { ServersRepository } from './servers.repository';

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
  servers: ServersRepository,
  manager: TransactionManager,
  server: { id: number; type: string },
): Promise<number[]> {
  const isEdge = server.type.startsWith('EDGE');
  const isOrigin = server.type.startsWith('ORG');
  if (!isEdge && !isOrigin) {
    return [];
  }
  const prefix = isEdge ? 'EDGE' : 'ORG';
  const rows = await servers.onlyServedBy(manager, prefix, server.id);
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
  servers: ServersRepository,
  manager: TransactionManager,
  server: { id: number; cachegroupId: number; cdnId: number },
): Promise<string | undefined> {
  const rows = await servers.topologyCachegroupServers(manager, server.cachegroupId, server.id);
  if (rows.length === 0) {
    return undefined;
  }
  const name = rows[0].cachegroup;
  if (rows.every((row) => Number(row.n) === 0)) {
    const topologies = [...new Set(rows.map((row) => row.topology))];
    return `cachegroups with no servers in them: ${name} (in topologies: ${topologies.join(', ')})`;
  }
  if (
    !(await servers.topologyUsedOnCdn(manager, name, server.cdnId)) ||
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
 * address <a>`). The profiles' rows are write-locked first, so two
 * writes with the same profiles take their turns and neither misses the other's address.
 */
export async function assertServiceAddressesFree(
  servers: ServersRepository,
  manager: TransactionManager,
  service: string[],
  profiles: { id: number }[],
  serverId?: number,
): Promise<void> {
  const profileIds = profiles.map((p) => p.id);
  if (service.length === 0 || profileIds.length === 0) {
    return;
  }
  await servers.lockProfiles(manager, profileIds);
  const holders = await servers.addressHolders(manager, service, serverId ?? 0);
  if (holders.length === 0) {
    return;
  }
  const ids = [...new Set(holders.map((h) => Number(h.server)))];
  const profilesOf = await servers.profilesOf(manager, ids);
  const same = (id: number) => (profilesOf.get(id) ?? []).join(',') === profileIds.join(',');
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
  servers: ServersRepository,
  manager: TransactionManager,
  existing: { id: number; cachegroupId: number; cdnId: number; statusId: number; typeId: number },
  wanted: { cachegroupId: number; cdnId: number; statusId: number },
): Promise<void> {
  if (wanted.cachegroupId !== existing.cachegroupId || wanted.cdnId !== existing.cdnId) {
    const emptied = await emptiedTopologyCachegroup(servers, manager, existing);
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
  const status = await servers.statusName(manager, wanted.statusId);
  if (status === undefined || status === 'ONLINE' || status === 'REPORTED') {
    return;
  }
  const type = await servers.typeName(manager, existing.typeId);
  const left = await activeDeliveryServicesOnlyServedBy(servers, manager, { id: existing.id, type });
  if (left.length > 0) {
    throw new ConflictException(
      leftWithoutServersText(
        `setting server status to '${status}' would leave Active Delivery Service`,
        type,
        left,
      ),
    );
  }
}
