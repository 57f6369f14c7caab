import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * Filters (the original's: id, name, region — the region's id) and orderable fields of
 * GET /phys_locations. As in the original, `orderby=region` sorts by the region id.
 */
export const PHYS_LOCATION_LIST: ListSpec = {
  fields: {
    address: { column: 'pl.address', filter: false },
    city: { column: 'pl.city', filter: false },
    comments: { column: 'pl.comments', filter: false },
    email: { column: 'pl.email', filter: false },
    id: { column: 'pl.id', type: 'int' },
    lastUpdated: { column: 'pl.last_updated', filter: false },
    name: { column: 'pl.name' },
    phone: { column: 'pl.phone', filter: false },
    poc: { column: 'pl.poc', filter: false },
    region: { column: 'pl.region', type: 'int' },
    regionId: { column: 'pl.region', filter: false },
    shortName: { column: 'pl.short_name', filter: false },
    state: { column: 'pl.state', filter: false },
    zip: { column: 'pl.zip', filter: false },
  },
  defaultOrder: 'name',
};
