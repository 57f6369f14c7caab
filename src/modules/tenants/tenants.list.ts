import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters and orderable fields of GET /tenants. */
export const TENANT_LIST: ListSpec = {
  fields: {
    id: { column: 'tenant.id', type: 'int' },
    name: { column: 'tenant.name' },
    active: { column: 'tenant.active', type: 'bool' },
    parentId: { column: 'tenant.parent_id', type: 'int' },
    parentName: { column: 'parent.name', filter: false },
    lastUpdated: { column: 'tenant.last_updated', filter: false },
  },
  defaultOrder: 'name',
};
