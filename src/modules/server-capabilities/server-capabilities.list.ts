import type { ListSpec } from 'src/common/list-query/list-query';

/** GET server_capabilities: the original filters and orders by `name` only (by name by default). */
export const SERVER_CAPABILITY_LIST: ListSpec = {
  fields: {
    name: { column: 'sc.name', unique: true },
  },
  defaultOrder: 'name',
};

/**
 * GET server_server_capabilities: the original's filters, which are also its orderable fields; by
 * host name by default, then by server and capability.
 */
export const SERVER_SERVER_CAPABILITY_LIST: ListSpec = {
  fields: {
    serverCapability: { column: 'ssc.server_capability' },
    serverHostName: { column: 's.host_name' },
    serverId: { column: 'ssc.server', type: 'int' },
  },
  defaultOrder: 'serverHostName',
  tiebreak: 'ssc.server',
};

/**
 * GET deliveryservices_required_capabilities: the original's filters, which are also its orderable
 * fields; by delivery service then capability by default (the original names no order).
 */
export const REQUIRED_CAPABILITY_LIST: ListSpec = {
  fields: {
    deliveryServiceID: { column: 'drc.deliveryservice_id', type: 'int' },
    requiredCapability: { column: 'drc.required_capability' },
    xmlID: { column: 'ds.xml_id' },
  },
  defaultOrder: 'deliveryServiceID',
  tiebreak: 'drc.required_capability',
};
