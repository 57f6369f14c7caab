import type { ListSpec } from 'src/common/list-query/list-query';

/** Delivery-service types whose traffic goes through mid-tier caches (all but the live ones). */
const WITHOUT_MIDS = "('DNS_LIVE', 'HTTP_LIVE', 'HTTP_NO_CACHE')";

/**
 * The server (alias `alias`) has every capability the delivery service requires (always true for
 * one requiring none), as the original's `@>` of the two capability arrays.
 */
const hasRequiredCapabilities = (alias: string, param: string): string =>
  'NOT EXISTS (SELECT 1 FROM deliveryservices_required_capability drc ' +
  `WHERE drc.deliveryservice_id = :${param} AND NOT EXISTS (SELECT 1 FROM server_server_capability ssc ` +
  `WHERE ssc.server = ${alias}.id AND ssc.server_capability = drc.required_capability))`;

/**
 * `dsId`: the servers of a delivery service, as the original lists them. Its assigned origins (ORG,
 * whatever their CDN); for a delivery service without a topology, the servers assigned to it in its
 * CDN, and for a topology-based one, the non-ORG servers of its CDN in the topology's cache groups;
 * both only when they have every capability it requires. Then, unless it is topology-based or of a
 * live type, the MID servers of its CDN having those capabilities, in the parent cache groups of the
 * servers listed. The tenancy of the delivery service is checked first (ServersService.list).
 */
export function serversOfDeliveryService(param: string): string {
  const assignedOrigin =
    "type.name = 'ORG' AND EXISTS (SELECT 1 FROM deliveryservice_server dss " +
    `WHERE dss.deliveryservice = :${param} AND dss.server = server.id)`;
  const assignedHere =
    'SELECT 1 FROM deliveryservice_server dss JOIN deliveryservice d ON d.id = dss.deliveryservice ' +
    `WHERE dss.deliveryservice = :${param} AND dss.server = server.id ` +
    'AND d.topology IS NULL AND d.cdn_id = server.cdn_id';
  const inTopology =
    'SELECT 1 FROM deliveryservice d JOIN topology_cachegroup tc ON tc.topology = d.topology ' +
    'JOIN cachegroup c ON c.name = tc.cachegroup ' +
    `WHERE d.id = :${param} AND c.id = server.cachegroup AND d.cdn_id = server.cdn_id`;
  const parentsOfListed =
    'SELECT cg.parent_cachegroup_id FROM deliveryservice_server dss ' +
    'JOIN deliveryservice d ON d.id = dss.deliveryservice JOIN type dt ON dt.id = d.type ' +
    'JOIN server e ON e.id = dss.server JOIN type et ON et.id = e.type ' +
    'JOIN cachegroup cg ON cg.id = e.cachegroup ' +
    `WHERE dss.deliveryservice = :${param} AND d.topology IS NULL AND dt.name NOT IN ${WITHOUT_MIDS} ` +
    `AND (et.name = 'ORG' OR (e.cdn_id = d.cdn_id AND ${hasRequiredCapabilities('e', param)})) ` +
    'AND d.cdn_id = server.cdn_id AND cg.parent_cachegroup_id IS NOT NULL';
  return (
    `((${assignedOrigin}) ` +
    `OR ((EXISTS (${assignedHere}) OR (type.name <> 'ORG' AND EXISTS (${inTopology}))) ` +
    `AND ${hasRequiredCapabilities('server', param)}) ` +
    `OR (type.name = 'MID' AND server.cachegroup IN (${parentsOfListed}) ` +
    `AND ${hasRequiredCapabilities('server', param)}))`
  );
}

/** Filters and orderable fields of GET /servers (the original's, plus `profileName`). */
export const SERVER_LIST: ListSpec = {
  fields: {
    id: { column: 'server.id', type: 'int' },
    hostName: { column: 'server.host_name' },
    domainName: { column: 'server.domain_name' },
    cachegroup: { column: 'server.cachegroup', type: 'int' },
    cachegroupId: { column: 'server.cachegroup', type: 'int', filter: false },
    cachegroupName: { column: 'cachegroup.name' },
    cacheGroup: { column: 'cachegroup.name', since: '5.0' },
    parentCachegroup: { column: 'cachegroup.parent_cachegroup_id', type: 'int' },
    cdn: { column: 'server.cdn_id', type: 'int' },
    cdnId: { column: 'server.cdn_id', type: 'int', filter: false },
    cdnName: { column: 'cdn.name', filter: false },
    physLocation: { column: 'server.phys_location', type: 'int' },
    physLocationId: { column: 'server.phys_location', type: 'int', filter: false },
    physicalLocationID: { column: 'server.phys_location', type: 'int', since: '5.0' },
    status: { column: 'status.name' },
    statusId: { column: 'server.status', type: 'int', filter: false },
    type: { column: 'type.name' },
    typeId: { column: 'server.type', type: 'int', filter: false },
    profileName: {
      column: 'server.id',
      condition: (param) =>
        'EXISTS (SELECT 1 FROM server_profile sp JOIN profile p ON p.id = sp.profile ' +
        `WHERE sp.server = server.id AND p.name = :${param})`,
    },
    profileId: {
      column: 'server.id',
      type: 'int',
      condition: (param) =>
        `EXISTS (SELECT 1 FROM server_profile sp WHERE sp.server = server.id AND sp.profile = :${param})`,
    },
    dsId: { column: 'server.id', type: 'int', condition: serversOfDeliveryService },
    rack: { column: 'server.rack', filter: false },
    lastUpdated: { column: 'server.last_updated', filter: false },
  },
  defaultOrder: 'hostName',
};
