import type { ListSpec } from 'src/common/list-query/list-query';

/** GET capabilities: the original filters and orders by `name` only. */
export const CAPABILITY_LIST: ListSpec = {
  fields: {
    name: { column: 'c.name', unique: true },
  },
  defaultOrder: 'name',
  tiebreak: 'c.name',
};

/** GET api_capabilities: the original's query parameters (`route` is answered as `httpRoute`). */
export const API_CAPABILITY_LIST: ListSpec = {
  fields: {
    id: { column: 'ac.id', type: 'int', unique: true },
    capability: { column: 'ac.capability' },
    httpMethod: { column: 'ac.http_method' },
    route: { column: 'ac.route' },
    lastUpdated: { column: 'ac.last_updated', filter: false },
  },
  defaultOrder: 'id',
  tiebreak: 'ac.id',
};
