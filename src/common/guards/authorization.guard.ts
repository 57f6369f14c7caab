import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { PermissionsMetadata, Public, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { type CurrentUser, holdsPermission } from 'src/common/types/current-user';
import { requestedVersion } from 'src/common/versioning/api-version';

/**
 * Second global guard (docs/decisions.md#d12): the user's role must reach the route's level on every
 * version, and on 4.0 and later also hold every permission the route lists.
 */
@Injectable()
export class AuthorizationGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride(Public, targets)) {
      return true;
    }
    const level = this.reflector.getAllAndOverride(RequirePrivLevel, targets);
    if (level === undefined) {
      throw new Error(
        `${context.getClass().name}.${context.getHandler().name} declares no authorization rule`,
      );
    }
    const req = context.switchToHttp().getRequest<Request>();
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
    return true;
  }
}
