import type { ListQuery, ListSpec } from 'src/common/list-query/list-query';
import { intRule, TextParam } from 'src/common/request-input/param-rules';

/**
 * The keys GET /logs reads beside the list conventions of LOG_LIST: `days`, a positive integer of at
 * most six digits (`days parameter must be a positive integer`), checked after the list's keys; and
 * whether `limit` was sent at all (its value is the list's).
 */
export const LOG_QUERY = {
  days: intRule('logDays', { required: false, column: { min: 1, max: 999_999 }, digits: 6 }),
  limit: TextParam(),
};

/** LOG_QUERY as read. */
export interface LogKeys {
  days?: number;
  limit?: string;
}

/** Without `days`, the original returns the last 30 days, at most 1,000 entries unless `limit` says otherwise. */
export const DEFAULT_DAYS = 30;
export const DEFAULT_LIMIT = 1000;

/** `username` is the only filter; the order is fixed (newest first), so `orderby` has nothing to name. */
export const LOG_LIST: ListSpec = {
  fields: {
    username: { column: 'u.username' },
    lastUpdated: { column: 'l.last_updated', filter: false },
  },
  defaultOrder: 'lastUpdated',
};

export interface LogQuery {
  days: number;
  username?: string;
  limit?: number;
  offset: number;
}

/** GET /logs: the list's `username`, `limit`, `offset` or `page`, and `days`, as the original applies them. */
export function logQuery(list: ListQuery, keys: LogKeys): LogQuery {
  const username = list.filters[0]?.value;
  return {
    days: keys.days ?? DEFAULT_DAYS,
    username: typeof username === 'string' ? username : undefined,
    // An explicit number of days lifts the default limit, as in the original.
    limit: list.limit ?? (keys.days === undefined && keys.limit === undefined ? DEFAULT_LIMIT : undefined),
    offset: list.offset ?? 0,
  };
}
