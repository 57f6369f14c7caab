import type { ApiVersion } from 'src/common/versioning/api-version';
import type { Role } from 'src/modules/roles/role.entity';

/** A role with the names of its permissions, sorted. */
export type RoleWithPermissions = Role & { permissions: string[] };

/** lib/go-tc RoleV4 (4.0 and later). */
export interface RoleV4 {
  name: string;
  description: string | null;
  permissions: string[];
  lastUpdated: Date;
}

/** lib/go-tc Role (3.x): the permissions are named `capabilities`. */
export interface RoleV3 {
  id: number;
  name: string;
  description: string | null;
  privLevel: number;
  capabilities: string[];
}

/** A role on the wire: 4.0+ `{name, description, permissions, lastUpdated}`; 3.x with id, level and `capabilities`. */
export function toRoleResponse(role: RoleWithPermissions, version: ApiVersion): RoleV3 | RoleV4 {
  if (version.atLeast('4.0')) {
    return {
      name: role.name,
      description: role.description,
      permissions: role.permissions,
      lastUpdated: role.lastUpdated,
    };
  }
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    privLevel: role.privLevel,
    capabilities: role.permissions,
  };
}
