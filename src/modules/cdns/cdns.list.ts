import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters and orderable fields of GET /cdns. */
export const CDN_LIST: ListSpec = {
  fields: {
    id: { column: 'cdn.id', type: 'int' },
    name: { column: 'cdn.name' },
    domainName: { column: 'cdn.domain_name' },
    dnssecEnabled: { column: 'cdn.dnssec_enabled', type: 'bool' },
    ttlOverride: { column: 'cdn.ttl_override', type: 'int', since: '4.1' },
    lastUpdated: { column: 'cdn.last_updated', filter: false },
  },
  defaultOrder: 'name',
};
