import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters and orderable fields of GET /cdn_notifications: `cdn`, `id` and `user`, as the original's. */
export const CDN_NOTIFICATION_LIST: ListSpec = {
  fields: {
    id: { column: 'n.id', type: 'int', unique: true },
    cdn: { column: 'c.name' },
    user: { column: 'u.username' },
  },
  defaultOrder: 'id',
  tiebreak: 'n.id',
};
