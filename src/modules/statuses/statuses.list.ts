import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters (the original's: id, name, description) and orderable fields of GET /statuses. */
export const STATUS_LIST: ListSpec = {
  fields: {
    description: { column: 'status.description' },
    id: { column: 'status.id', type: 'int' },
    lastUpdated: { column: 'status.last_updated', filter: false },
    name: { column: 'status.name' },
  },
  defaultOrder: 'name',
};
