import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters of GET servercheck (`id`, `hostName`, as the original's), ordered by host name. */
export const SERVERCHECK_LIST: ListSpec = {
  fields: {
    id: { column: 's.id', type: 'int', unique: true },
    hostName: { column: 's.host_name' },
  },
  defaultOrder: 'hostName',
  tiebreak: 's.id',
};

/** Filters of GET servercheck/extensions, as the original's. */
export const EXTENSION_LIST: ListSpec = {
  fields: {
    id: { column: 'e.id', type: 'int', unique: true },
    name: { column: 'e.name' },
    script_file: { column: 'e.script_file' },
    isactive: { column: 'e.isactive', type: 'bool' },
    type: { column: 't.name' },
  },
  defaultOrder: 'id',
  tiebreak: 'e.id',
};
