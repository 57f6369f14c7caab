import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters (`id`, `ipAddress`, `type` name, as the original) and orderable fields of GET federation_resolvers. */
export const FEDERATION_RESOLVER_LIST: ListSpec = {
  fields: {
    id: { column: 'fr.id', type: 'int' },
    ipAddress: { column: 'fr.ip_address' },
    type: { column: 't.name' },
    lastUpdated: { column: 'fr.last_updated', filter: false },
  },
  defaultOrder: 'id',
};
