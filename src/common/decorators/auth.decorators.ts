import { Reflector } from '@nestjs/core';
import type { Permission } from 'src/common/authorization/permissions';

/**
 * Minimum privilege levels (docs/decisions.md#d12): the roles the specification lists for a route set the
 * level a user's role must reach. `LoggedIn` is "any signed-in user whose role is not disallowed".
 */
export enum PrivLevel {
  LoggedIn = 1,
  ReadOnly = 10,
  Portal = 15,
  Operations = 20,
  Admin = 30,
}

/** The route needs no sign-in (login, ping, health). */
export const Public = Reflector.createDecorator<true>({ transform: () => true });

/** The minimum privilege level of the route, checked on every version. */
export const RequirePrivLevel = Reflector.createDecorator<PrivLevel>();

/** Permissions the user's role must all hold, checked on API 4.0 and later. */
export const PermissionsMetadata = Reflector.createDecorator<readonly Permission[]>();

export function RequirePermissions(...permissions: Permission[]): MethodDecorator & ClassDecorator {
  return PermissionsMetadata(permissions);
}
