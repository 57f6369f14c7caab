import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * GET /asns filters and order fields (docs/original-behaviour.md#asns). As in the original, the `cachegroup`
 * filter (and `orderby=cachegroup`) is the cache group's id, `cachegroupName` its name.
 */
export const ASN_LIST: ListSpec = {
  fields: {
    id: { column: 'a.id', type: 'int' },
    asn: { column: 'a.asn', type: 'bigint', unique: true },
    cachegroup: { column: 'c.id', type: 'int' },
    cachegroupName: { column: 'c.name' },
    cachegroupId: { column: 'a.cachegroup', filter: false },
    lastUpdated: { column: 'a.last_updated', filter: false },
  },
  defaultOrder: 'asn',
};
