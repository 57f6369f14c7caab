import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters and orderable fields of GET /servers (the original's, plus `profileName`). */
export const SERVER_LIST: ListSpec = {
  fields: {
    id: { column: 'server.id', type: 'int' },
    hostName: { column: 'server.host_name' },
    domainName: { column: 'server.domain_name' },
    cachegroup: { column: 'server.cachegroup', type: 'int' },
    cachegroupId: { column: 'server.cachegroup', type: 'int', filter: false },
    cachegroupName: { column: 'cachegroup.name' },
    parentCachegroup: { column: 'cachegroup.parent_cachegroup_id', type: 'int' },
    cdn: { column: 'server.cdn_id', type: 'int' },
    cdnId: { column: 'server.cdn_id', type: 'int', filter: false },
    cdnName: { column: 'cdn.name', filter: false },
    physLocation: { column: 'server.phys_location', type: 'int' },
    physLocationId: { column: 'server.phys_location', type: 'int', filter: false },
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
    rack: { column: 'server.rack', filter: false },
    lastUpdated: { column: 'server.last_updated', filter: false },
  },
  defaultOrder: 'hostName',
};
