import type { Tenant } from 'src/modules/tenants/tenant.entity';

/** A tenant with its parent joined in (for `parentName`). */
export type TenantWithParent = Tenant & { parent?: Tenant | null };

/** lib/go-tc Tenant: the same in every version. */
export interface TenantWire {
  active: boolean;
  id: number;
  lastUpdated: Date;
  name: string;
  parentId: number | null;
  parentName: string | null;
}

/** A tenant on the wire, the same in every version. */
export function toTenantResponse(tenant: TenantWithParent): TenantWire {
  return {
    active: tenant.active,
    id: tenant.id,
    lastUpdated: tenant.lastUpdated,
    name: tenant.name,
    parentId: tenant.parentId,
    parentName: tenant.parent?.name ?? null,
  };
}
