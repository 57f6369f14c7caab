import type { ListSpec, VersionedListSpecs } from 'src/common/list-query/list-query';

const NAME = { column: 'role.name' };
const LAST_UPDATED = { column: 'role.last_updated', filter: false };

/** Filters and orderable fields of GET /roles: 3.x objects carry id and privLevel, 4.0+ do not. */
export const ROLE_LIST: VersionedListSpecs = {
  '3.0': {
    fields: {
      id: { column: 'role.id', type: 'int' },
      name: NAME,
      description: { column: 'role.description', filter: false },
      privLevel: { column: 'role.priv_level', type: 'int' },
    },
    defaultOrder: 'name',
  },
  '4.0': {
    fields: {
      name: NAME,
      description: { column: 'role.description', filter: false },
      lastUpdated: LAST_UPDATED,
    },
    defaultOrder: 'name',
    tiebreak: 'role.id',
  },
} satisfies Record<string, ListSpec>;
