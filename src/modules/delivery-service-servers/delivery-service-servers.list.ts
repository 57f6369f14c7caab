import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * Orderable fields of GET /deliveryserviceserver (the original's whitelist, including its aliases)
 * and its one exact filter, `cdn` (a CDN name, matched on the delivery service's CDN). The id lists
 * `deliveryserviceids` and `serverids` are parsed by the service.
 */
export const DELIVERY_SERVICE_SERVER_LIST: ListSpec = {
  fields: {
    deliveryService: { column: 'dss.deliveryservice', filter: false },
    deliveryservice: { column: 'dss.deliveryservice', filter: false },
    server: { column: 'dss.server', filter: false },
    lastUpdated: { column: 'dss.last_updated', filter: false },
    lastupdated: { column: 'dss.last_updated', filter: false },
    last_updated: { column: 'dss.last_updated', filter: false },
    cdn: {
      column: 'ds.cdn_id',
      condition: (param) => `ds.cdn_id = (SELECT c.id FROM cdn c WHERE c.name = :${param})`,
    },
  },
  defaultOrder: 'deliveryService',
  tiebreak: 'dss.id',
};

/** The original pages this list by 20 when no `limit` is given. */
export const DEFAULT_LIMIT = 20;
