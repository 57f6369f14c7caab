import type { EntityManager } from 'typeorm';

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
