import { sameColumns, type TableMapping } from 'src/cli/import/mapping';

export const divisions: TableMapping = sameColumns('division', ['id', 'name', 'last_updated']);

export const regions: TableMapping = sameColumns('region', ['id', 'name', 'division', 'last_updated']);

export const physLocations: TableMapping = sameColumns('phys_location', [
  'id',
  'name',
  'short_name',
  'address',
  'city',
  'state',
  'zip',
  'poc',
  'phone',
  'email',
  'comments',
  'region',
  'last_updated',
]);

export const coordinates: TableMapping = sameColumns('coordinate', [
  'id',
  'name',
  'latitude',
  'longitude',
  'last_updated',
]);

/** Cache groups keep their coordinate's latitude and longitude (null when it has none). */
export const cachegroups: TableMapping = {
  table: 'cachegroup',
  from: ['cachegroup', 'coordinate'],
  parents: ['parent_cachegroup_id', 'secondary_parent_cachegroup_id'],
  select: () =>
    'SELECT cg.id, cg.name, cg.short_name, co.latitude, co.longitude, cg.parent_cachegroup_id, ' +
    'cg.secondary_parent_cachegroup_id, cg.type, COALESCE(cg.fallback_to_closest, true) AS fallback_to_closest, ' +
    'cg.last_updated FROM cachegroup cg LEFT JOIN coordinate co ON co.id = cg.coordinate ORDER BY cg.id',
};

export const cachegroupFallbacks: TableMapping = {
  table: 'cachegroup_fallbacks',
  from: ['cachegroup_fallbacks'],
  key: ['primary_cg', 'backup_cg'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY primary_cg, set_order, backup_cg) AS id, primary_cg, backup_cg, set_order ' +
    'FROM cachegroup_fallbacks ORDER BY primary_cg, set_order, backup_cg',
};

export const cachegroupLocalizationMethods: TableMapping = {
  table: 'cachegroup_localization_method',
  from: ['cachegroup_localization_method'],
  key: ['cachegroup', 'method'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY cachegroup, method) AS id, cachegroup, method::text AS method ' +
    'FROM cachegroup_localization_method ORDER BY cachegroup, method',
};

export const asns: TableMapping = sameColumns('asn', ['id', 'asn', 'cachegroup', 'last_updated']);
