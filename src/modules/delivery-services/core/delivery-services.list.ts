import type { ListField, ListSpec, VersionedListSpecs } from 'src/common/list-query/list-query';
import { reachableTenantIdsSql } from 'src/modules/tenants/tenants.repository';
import { ACTIVE_STATES } from './delivery-service-rules';

/**
 * Filters and orderable fields of GET /deliveryservices (docs/original-behaviour.md#deliveryservices):
 * the original's filters (id, cdn, xmlId and xml_id, profile, type, logsEnabled, signingAlgorithm,
 * serviceCategory, tenant, topology, active, accessibleTo) plus orderable response fields; default
 * order xmlId.
 */
const common: Record<string, ListField> = {
  id: { column: 'ds.id', type: 'int' },
  cdn: { column: 'ds.cdn_id', type: 'int' },
  xmlId: { column: 'ds.xml_id' },
  xml_id: { column: 'ds.xml_id' },
  profile: { column: 'ds.profile', type: 'int' },
  type: { column: 'ds.type', type: 'int' },
  logsEnabled: { column: 'ds.logs_enabled', type: 'bool' },
  signingAlgorithm: { column: 'ds.signing_algorithm' },
  serviceCategory: { column: 'ds.service_category' },
  tenant: { column: 'ds.tenant_id', type: 'int' },
  topology: { column: 'ds.topology' },
  /** The delivery services a user of that tenant would see. */
  accessibleTo: {
    column: 'ds.tenant_id',
    type: 'int',
    condition: (param) => `ds.tenant_id IN (${reachableTenantIdsSql(param)})`,
  },
  // Orderable only (fields of the response).
  cdnId: { column: 'ds.cdn_id', filter: false },
  cdnName: { column: 'cdn.name', filter: false },
  displayName: { column: 'ds.display_name', filter: false },
  lastUpdated: { column: 'ds.last_updated', filter: false },
  profileId: { column: 'ds.profile', filter: false },
  profileName: { column: 'profile.name', filter: false },
  routingName: { column: 'ds.routing_name', filter: false },
  tenantId: { column: 'ds.tenant_id', filter: false },
  typeId: { column: 'ds.type', filter: false },
  dscp: { column: 'ds.dscp', filter: false },
  protocol: { column: 'ds.protocol', filter: false },
};

/** 3.x and 4.x: `active` is a boolean, true meaning ACTIVE. */
export const DS_LIST_V4: ListSpec = {
  fields: {
    ...common,
    active: {
      column: 'ds.active',
      type: 'bool',
      condition: (param) => `(CASE WHEN ds.active = 'ACTIVE' THEN 1 ELSE 0 END) = :${param}`,
    },
  },
  defaultOrder: 'xmlId',
};

/** 5.0: `active` is the state name. */
export const DS_LIST_V5: ListSpec = {
  fields: { ...common, active: { column: 'ds.active', oneOf: ACTIVE_STATES } },
  defaultOrder: 'xmlId',
};

/** The list of each version: 5.0's `active` is a state name (another is refused). */
export const DS_LISTS: VersionedListSpecs = { '3.0': DS_LIST_V4, '5.0': DS_LIST_V5 };
