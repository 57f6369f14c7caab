import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters (the original's: id, name) and orderable fields of GET /divisions. */
export const DIVISION_LIST: ListSpec = {
  fields: {
    id: { column: 'division.id', type: 'int' },
    name: { column: 'division.name' },
    lastUpdated: { column: 'division.last_updated', filter: false },
  },
  defaultOrder: 'name',
};
