import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * GET /origins (docs/original-behaviour.md#origins): the original's filters — `cachegroup`,
 * `coordinate`, `deliveryservice`, `profileId` and `tenant` are ids, `primary` a boolean — and the
 * response's fields to order by; default order `id`.
 */
export const ORIGIN_LIST: ListSpec = {
  fields: {
    cachegroup: { column: 'o.cachegroup', type: 'int' },
    coordinate: { column: 'o.coordinate', type: 'int' },
    deliveryservice: { column: 'o.deliveryservice', type: 'int' },
    fqdn: { column: 'o.fqdn', filter: false },
    id: { column: 'o.id', type: 'int' },
    lastUpdated: { column: 'o.last_updated', filter: false },
    name: { column: 'o.name', unique: true },
    primary: { column: 'o.is_primary', type: 'bool' },
    profileId: { column: 'o.profile', type: 'int' },
    protocol: { column: 'o.protocol', filter: false },
    tenant: { column: 'o.tenant', type: 'int' },
  },
  defaultOrder: 'id',
};
