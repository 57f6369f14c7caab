import type { ListSpec } from 'src/common/list-query/list-query';

/** GET /service_categories: the original filters by `name` only; default order `name`. */
export const SERVICE_CATEGORY_LIST: ListSpec = {
  fields: {
    lastUpdated: { column: 'sc.last_updated', filter: false },
    name: { column: 'sc.name', unique: true },
  },
  defaultOrder: 'name',
  tiebreak: 'sc.name',
};
