import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters and orderable fields of GET /cdn_locks: `cdn` and `username`, as the original's. */
export const CDN_LOCK_LIST: ListSpec = {
  fields: {
    cdn: { column: 'c.name', unique: true },
    username: { column: 'u.username' },
  },
  defaultOrder: 'cdn',
  tiebreak: 'c.name',
};
