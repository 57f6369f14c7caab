import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import {
  OnlyUserMetadata,
  PermissionsMetadata,
  Public,
  RequirePrivLevel,
} from 'src/common/decorators/auth.decorators';
import { type CurrentUser, holdsPermission } from 'src/common/types/current-user';
import { requestedVersion } from 'src/common/versioning/api-version';

/** Set on a request once the authorization guard has let it through. */
const AUTHORIZED = Symbol('authorized');

/**
 * Whether the route's authorization let the request through. The body is read only then
 * (`@ValidBody`): whoever may not call a route gets its 401 or 403, never a 400 about the body
 * (docs/decisions.md#d116).
 */
export function isAuthorized(req: Request): boolean {
  return (req as Request & { [AUTHORIZED]?: true })[AUTHORIZED] === true;
}

function markAuthorized(req: Request): true {
  (req as Request & { [AUTHORIZED]?: true })[AUTHORIZED] = true;
  return true;
}

/**
 * Second global guard (docs/decisions.md#d12, #d116): the user's role must reach the route's level on
 * every version, and on 4.0 and later also hold every permission the route lists; a route only one
 * user may call (`@OnlyUser`) refuses everyone else on every version.
 */
@Injectable()
export class AuthorizationGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    const req = context.switchToHttp().getRequest<Request>();
    if (this.reflector.getAllAndOverride(Public, targets)) {
      return markAuthorized(req);
    }
    const level = this.reflector.getAllAndOverride(RequirePrivLevel, targets);
    if (level === undefined) {
      throw new Error(
        `${context.getClass().name}.${context.getHandler().name} declares no authorization rule`,
      );
    }
    const user = req.user as CurrentUser;
    if (user.privLevel < Number(level)) {
      throw new ForbiddenException('Forbidden.');
    }
    if (requestedVersion(req).atLeast('4.0')) {
      const required = this.reflector.getAllAndOverride(PermissionsMetadata, targets) ?? [];
      const missing = required.filter((permission) => !holdsPermission(user, permission));
      if (missing.length > 0) {
        throw new ForbiddenException(`missing required Permissions: ${missing.join(', ')}`);
      }
    }
    const only = this.reflector.getAllAndOverride(OnlyUserMetadata, targets);
    if (only !== undefined && user.username !== only.username) {
      throw new ForbiddenException(only.forbidden);
    }
    return markAuthorized(req);
  }
}
