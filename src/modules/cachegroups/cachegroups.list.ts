import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * Filters and orderable fields of GET /cachegroups. The original filters on id, name, shortName and
 * `type` (the type's id); every other field of the response can only order the list.
 */
export const CACHEGROUP_LIST: ListSpec = {
  fields: {
    id: { column: 'cg.id', type: 'int' },
    name: { column: 'cg.name' },
    shortName: { column: 'cg.short_name' },
    type: { column: 'cg.type', type: 'int' },
    typeId: { column: 'cg.type', filter: false },
    typeName: { column: 't.name', filter: false },
    latitude: { column: 'cg.latitude', filter: false },
    longitude: { column: 'cg.longitude', filter: false },
    parentCachegroupId: { column: 'cg.parent_cachegroup_id', filter: false },
    parentCachegroupName: { column: 'p.name', filter: false },
    secondaryParentCachegroupId: { column: 'cg.secondary_parent_cachegroup_id', filter: false },
    secondaryParentCachegroupName: { column: 'sp.name', filter: false },
    fallbackToClosest: { column: 'cg.fallback_to_closest', filter: false },
    lastUpdated: { column: 'cg.last_updated', filter: false },
  },
  defaultOrder: 'name',
};
