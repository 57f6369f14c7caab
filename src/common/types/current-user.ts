import { ALL_PERMISSIONS, type Permission } from 'src/common/authorization/permissions';

/** Who is asking, computed once per request by the session guard from one indexed query. */
export interface CurrentUser {
  id: number;
  username: string;
  roleName: string;
  privLevel: number;
  permissions: ReadonlySet<string>;
  tenantId: number;
}

/** Whether the user's role holds a permission named by a route or a rule. */
export function holdsPermission(user: CurrentUser, permission: Permission): boolean {
  return holdsPermissionNamed(user, permission);
}

/**
 * The same for any name a role may list (role permission lists are free text, so a role write asks
 * about names that no route requires).
 */
export function holdsPermissionNamed(user: CurrentUser, name: string): boolean {
  return user.roleName === 'admin' || user.permissions.has(ALL_PERMISSIONS) || user.permissions.has(name);
}
