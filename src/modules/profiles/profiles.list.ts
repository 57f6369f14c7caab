import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * Filters of GET /profiles are the original's (id, name, cdn; `param` is handled by the controller);
 * every field of the response can order the list.
 */
export const PROFILE_LIST: ListSpec = {
  fields: {
    id: { column: 'profile.id', type: 'int' },
    name: { column: 'profile.name' },
    cdn: { column: 'profile.cdn', type: 'int' },
    description: { column: 'profile.description', filter: false },
    cdnName: { column: 'cdn.name', filter: false },
    routingDisabled: { column: 'profile.routing_disabled', filter: false },
    type: { column: 'profile.type', filter: false },
    lastUpdated: { column: 'profile.last_updated', filter: false },
  },
  defaultOrder: 'name',
};
