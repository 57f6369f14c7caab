import type { ListField, ListSpec, VersionedListSpecs } from 'src/common/list-query/list-query';

const fields = (role: ListField): Record<string, ListField> => ({
  id: { column: 'u.id', type: 'int' },
  username: { column: 'u.username' },
  /** Filters by the tenant's name on every version, as the original (Traffic Portal's tenant users page). */
  tenant: { column: 't.name' },
  tenantId: { column: 'u.tenant_id', filter: false },
  role,
  email: { column: 'u.email', filter: false },
  fullName: { column: 'u.full_name', filter: false },
  lastUpdated: { column: 'u.last_updated', filter: false },
});

/** Filters and orderable fields of GET /users: the role is a name on 4.0+, an id on 3.x. */
export const USER_LIST: VersionedListSpecs = {
  '3.0': { fields: fields({ column: 'u.role', type: 'int' }), defaultOrder: 'username' },
  '4.0': { fields: fields({ column: 'r.name' }), defaultOrder: 'username' },
} satisfies Record<string, ListSpec>;
