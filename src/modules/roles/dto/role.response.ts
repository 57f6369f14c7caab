import type { ApiVersion } from 'src/common/versioning/api-version';
import type { Role } from 'src/modules/roles/role.entity';

/** A role with the names of its permissions, sorted. */
export type RoleWithPermissions = Role & { permissions: string[] };

/** A role on the wire: 4.0+ `{name, description, permissions, lastUpdated}`; 3.x with id, level and `capabilities`. */
export function toRoleResponse(role: RoleWithPermissions, version: ApiVersion): Record<string, unknown> {
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
