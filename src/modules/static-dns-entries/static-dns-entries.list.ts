import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * GET /staticdnsentries (docs/original-behaviour.md#static-dns-entries): the original's query
 * parameters, each a filter and an order — `cachegroup`, `deliveryservice` and `type` by name,
 * their `…Id` by id; default order `host`.
 */
export const STATIC_DNS_ENTRY_LIST: ListSpec = {
  fields: {
    address: { column: 'sde.address' },
    cachegroup: { column: 'cg.name' },
    cachegroupId: { column: 'cg.id', type: 'int' },
    deliveryservice: { column: 'ds.xml_id' },
    deliveryserviceId: { column: 'sde.deliveryservice', type: 'int' },
    host: { column: 'sde.host' },
    id: { column: 'sde.id', type: 'int' },
    ttl: { column: 'sde.ttl', type: 'bigint' },
    type: { column: 'tp.name' },
    typeId: { column: 'tp.id', type: 'int' },
  },
  defaultOrder: 'host',
};
