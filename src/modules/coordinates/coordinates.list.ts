import type { ListSpec } from 'src/common/list-query/list-query';

/** GET /coordinates: the original filters by `id` and `name`; default order `name`. */
export const COORDINATE_LIST: ListSpec = {
  fields: {
    id: { column: 'c.id', type: 'int' },
    lastUpdated: { column: 'c.last_updated', filter: false },
    latitude: { column: 'c.latitude', filter: false },
    longitude: { column: 'c.longitude', filter: false },
    name: { column: 'c.name', unique: true },
  },
  defaultOrder: 'name',
};
