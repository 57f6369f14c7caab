/** Who is asking, computed once per request by the session guard from one indexed query. */
export interface CurrentUser {
  id: number;
  username: string;
  roleName: string;
  privLevel: number;
  permissions: ReadonlySet<string>;
  tenantId: number;
}

export function holdsPermission(user: CurrentUser, permission: string): boolean {
  return user.roleName === 'admin' || user.permissions.has('ALL') || user.permissions.has(permission);
}
