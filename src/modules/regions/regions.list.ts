import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters (the original's: id, name, division id) and orderable fields of GET /regions. */
export const REGION_LIST: ListSpec = {
  fields: {
    id: { column: 'region.id', type: 'int' },
    name: { column: 'region.name' },
    division: { column: 'region.division', type: 'int' },
    divisionName: { column: 'division.name', filter: false },
    lastUpdated: { column: 'region.last_updated', filter: false },
  },
  defaultOrder: 'name',
};
