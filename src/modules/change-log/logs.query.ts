import { BadRequestException } from '@nestjs/common';
import { parseListQuery, type ListSpec } from 'src/common/list-query/list-query';
import type { ApiVersion } from 'src/common/versioning/api-version';
import { TextParams } from 'src/common/request-input/param-rules';
import { paramText } from 'src/common/request-input/param-texts';

/** The keys GET /logs reads: `days`, and the list conventions of LOG_LIST. */
export const LOG_QUERY = TextParams('days', 'username', 'orderby', 'sortOrder', 'limit', 'offset', 'page');

/** Without `days`, the original returns the last 30 days, at most 1,000 entries unless `limit` says otherwise. */
export const DEFAULT_DAYS = 30;
export const DEFAULT_LIMIT = 1000;

/** `username` is the only filter; the order is fixed (newest first), so `orderby` has nothing to name. */
const LOG_LIST: ListSpec = {
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

/** GET /logs: `days`, `username`, and the list conventions' `limit`/`offset`/`page`, validated. */
export function parseLogQuery(query: Record<string, unknown>, version: ApiVersion): LogQuery {
  const list = parseListQuery(LOG_LIST, query, version);
  const rawDays = query.days;
  let days = DEFAULT_DAYS;
  if (rawDays !== undefined) {
    if (typeof rawDays !== 'string' || !/^\d{1,6}$/.test(rawDays) || Number(rawDays) < 1) {
      throw new BadRequestException(
        paramText('logDays', 'notInt', 'days', typeof rawDays === 'string' ? rawDays : ''),
      );
    }
    days = Number(rawDays);
  }
  const username = list.filters[0]?.value;
  return {
    days,
    username: typeof username === 'string' ? username : undefined,
    // An explicit number of days lifts the default limit, as in the original.
    limit: list.limit ?? (rawDays === undefined && query.limit === undefined ? DEFAULT_LIMIT : undefined),
    offset: list.offset ?? 0,
  };
}
