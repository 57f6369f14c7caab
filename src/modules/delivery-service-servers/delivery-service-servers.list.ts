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

/**
 * GET servers/{id}/deliveryservices: the original's filters `xmlId` and `xml_id`, ordered by
 * `xml_id` unless told otherwise (columns of the delivery-service query, alias `ds`).
 */
export const SERVER_DELIVERY_SERVICE_LIST: ListSpec = {
  fields: {
    xmlId: { column: 'ds.xml_id', unique: true },
    xml_id: { column: 'ds.xml_id', unique: true },
  },
  defaultOrder: 'xml_id',
  tiebreak: 'ds.id',
};

/**
 * The delivery services of a server, as a condition of the delivery-service query: those it is
 * assigned to and, unless it is an origin (ORG), the topology-based ones of its CDN whose topology
 * holds its cache group, as the original's `servers/{id}/deliveryservices`.
 */
export const assignedToServer = (param: string): string =>
  `(ds.id IN (SELECT x.deliveryservice FROM deliveryservice_server x WHERE x.server = :${param}) ` +
  'OR ds.id IN (SELECT td.id FROM deliveryservice td ' +
  'JOIN topology_cachegroup tc ON tc.topology = td.topology ' +
  'JOIN cachegroup cg ON cg.name = tc.cachegroup ' +
  'JOIN server s ON s.cachegroup = cg.id AND s.cdn_id = td.cdn_id ' +
  `JOIN type st ON st.id = s.type WHERE s.id = :${param} AND st.name <> 'ORG'))`;

/** The servers assigned to a delivery service, as a condition of the server query (alias `server`). */
export const assignedToDeliveryService = (param: string): string =>
  `server.id IN (SELECT x.server FROM deliveryservice_server x WHERE x.deliveryservice = :${param})`;

/**
 * The servers that could be assigned to a delivery service: the EDGE… and ORG… servers of its CDN
 * (type names compared case-sensitively on both databases), an EDGE… one only when it has every
 * capability the delivery service requires.
 */
export const eligibleForDeliveryService = (param: string): string =>
  `server.cdn_id = (SELECT d.cdn_id FROM deliveryservice d WHERE d.id = :${param}) ` +
  "AND (SUBSTR(type.name, 1, 3) = 'ORG' OR (SUBSTR(type.name, 1, 4) = 'EDGE' " +
  'AND NOT EXISTS (SELECT 1 FROM deliveryservices_required_capability drc ' +
  `WHERE drc.deliveryservice_id = :${param} AND NOT EXISTS (SELECT 1 FROM server_server_capability ssc ` +
  'WHERE ssc.server = server.id AND ssc.server_capability = drc.required_capability))))';
