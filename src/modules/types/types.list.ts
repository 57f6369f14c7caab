import type { ListSpec } from 'src/common/list-query/list-query';

export const TYPE_LIST: ListSpec = {
  fields: {
    id: { column: 'type.id', type: 'int' },
    name: { column: 'type.name' },
    description: { column: 'type.description', filter: false },
    useInTable: { column: 'type.use_in_table' },
    lastUpdated: { column: 'type.last_updated', filter: false },
  },
  defaultOrder: 'name',
};
