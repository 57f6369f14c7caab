import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters and orderable fields of GET /topologies (the original's name, description, lastUpdated). */
export const TOPOLOGY_LIST: ListSpec = {
  fields: {
    name: { column: 't.name', unique: true },
    description: { column: 't.description' },
    lastUpdated: { column: 't.last_updated', filter: false },
  },
  defaultOrder: 'name',
  tiebreak: 't.name',
};
