import type { ListSpec } from 'src/common/list-query/list-query';

/** Delivery-service types whose traffic goes through mid-tier caches (all but the live ones). */
const WITHOUT_MIDS = "('DNS_LIVE', 'HTTP_LIVE', 'HTTP_NO_CACHE')";

/**
 * `dsId`: the servers of a delivery service, as the original lists them. The servers assigned to
 * it (deliveryservice_server) in its CDN, and its assigned origins (ORG) whatever their CDN; then,
 * unless the delivery service is topology-based or of a live type, the MID servers of its CDN in
 * the parent cache groups of those servers. The tenancy of the delivery service is checked first
 * (ServersService.list). A topology-based delivery service also gets every server of its CDN that is
 * not an origin in the cache groups of its topology, as the original's `dsId` join does.
 */
export function serversOfDeliveryService(param: string): string {
  const assignedHere =
    'SELECT 1 FROM deliveryservice_server dss JOIN deliveryservice d ON d.id = dss.deliveryservice ' +
    `WHERE dss.deliveryservice = :${param} AND dss.server = server.id ` +
    "AND (d.cdn_id = server.cdn_id OR type.name = 'ORG')";
  const parentsOfAssigned =
    'SELECT cg.parent_cachegroup_id FROM deliveryservice_server dss ' +
    'JOIN deliveryservice d ON d.id = dss.deliveryservice JOIN type dt ON dt.id = d.type ' +
    'JOIN server e ON e.id = dss.server JOIN type et ON et.id = e.type ' +
    'JOIN cachegroup cg ON cg.id = e.cachegroup ' +
    `WHERE dss.deliveryservice = :${param} AND d.topology IS NULL AND dt.name NOT IN ${WITHOUT_MIDS} ` +
    "AND (e.cdn_id = d.cdn_id OR et.name = 'ORG') AND d.cdn_id = server.cdn_id " +
    'AND cg.parent_cachegroup_id IS NOT NULL';
  const inTopologyHere =
    'SELECT 1 FROM deliveryservice td JOIN topology_cachegroup tc ON tc.topology = td.topology ' +
    `WHERE td.id = :${param} AND tc.cachegroup = cachegroup.name AND td.cdn_id = server.cdn_id ` +
    "AND type.name <> 'ORG'";
  return (
    `(EXISTS (${assignedHere}) OR EXISTS (${inTopologyHere}) ` +
    `OR (type.name = 'MID' AND server.cachegroup IN (${parentsOfAssigned})))`
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
