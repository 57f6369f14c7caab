import { type TableMapping } from 'src/cli/import/mapping';

export const serviceCategories: TableMapping = {
  table: 'service_category',
  from: ['service_category'],
  key: ['name'],
  select: () => 'SELECT name, last_updated FROM service_category ORDER BY name',
};

export const topologies: TableMapping = {
  table: 'topology',
  from: ['topology'],
  key: ['name'],
  select: () =>
    "SELECT name, COALESCE(description, '') AS description, last_updated FROM topology ORDER BY name",
};

export const topologyCachegroups: TableMapping = {
  table: 'topology_cachegroup',
  from: ['topology_cachegroup'],
  select: () => 'SELECT id, topology, cachegroup, last_updated FROM topology_cachegroup ORDER BY id',
};

export const topologyCachegroupParents: TableMapping = {
  table: 'topology_cachegroup_parents',
  from: ['topology_cachegroup_parents'],
  key: ['child', 'parent'],
  select: () =>
    'SELECT child, parent, rank, last_updated FROM topology_cachegroup_parents ORDER BY child, rank, parent',
};
