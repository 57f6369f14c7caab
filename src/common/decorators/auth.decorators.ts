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

/** A route only one user may call, whatever their role: that user's name and the 403's text for others. */
export interface OnlyUserRule {
  username: string;
  forbidden: string;
}

/**
 * Only the user named may call the route (on every version), as the original's handlers that check
 * the user's name before reading the body (`servercheck`: the "extension" user). Decided by the
 * authorization guard with the level and the permissions, before any body is read.
 */
export const OnlyUserMetadata = Reflector.createDecorator<OnlyUserRule>();

export function OnlyUser(username: string, forbidden: string): MethodDecorator & ClassDecorator {
  return OnlyUserMetadata({ username, forbidden });
}
