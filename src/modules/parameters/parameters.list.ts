import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters (the original's whitelist) and orderable fields of GET /parameters. */
export const PARAMETER_LIST: ListSpec = {
  fields: {
    id: { column: 'p.id', type: 'int' },
    name: { column: 'p.name' },
    configFile: { column: 'p.config_file' },
    value: { column: 'p.value' },
    secure: { column: 'p.secure', type: 'bool' },
    comment: { column: 'p.comment' },
    lastUpdated: { column: 'p.last_updated', filter: false },
  },
  defaultOrder: 'name',
};
