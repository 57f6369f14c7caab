import { Controller, ForbiddenException, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import {
  OnlyUser,
  PrivLevel,
  Public,
  RequirePermissions,
  RequirePrivLevel,
} from 'src/common/decorators/auth.decorators';
import { AuthorizationGuard, isAuthorized } from 'src/common/guards/authorization.guard';
import type { CurrentUser } from 'src/common/types/current-user';

@Controller('things')
class ThingsController {
  @Get()
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CDN:CREATE', 'CDN:READ')
  create(): void {}

  @Get('open')
  @Public()
  open(): void {}

  @Get('undeclared')
  undeclared(): void {}

  @Get('mine')
  @RequirePrivLevel(PrivLevel.LoggedIn)
  @OnlyUser('extension', 'only the extension user')
  mine(): void {}
}

const user = (privLevel: number, permissions: string[], roleName = 'custom'): CurrentUser => ({
  id: 1,
  username: 'u',
  roleName,
  privLevel,
  permissions: new Set(permissions),
  tenantId: 1,
});

function context(handler: keyof ThingsController, version: string, who?: CurrentUser): ExecutionContextHost {
  const req = { path: `/api/${version}/things`, user: who };
  const ctx = new ExecutionContextHost([req, {}]);
  ctx.setType('http');
  jest.spyOn(ctx, 'getHandler').mockReturnValue(ThingsController.prototype[handler]);
  jest.spyOn(ctx, 'getClass').mockReturnValue(ThingsController);
  return ctx;
}

describe('AuthorizationGuard (D12)', () => {
  const guard = new AuthorizationGuard(new Reflector());

  it('lets public routes through', () => {
    expect(guard.canActivate(context('open', '4.0'))).toBe(true);
  });

  it.each(['3.0', '4.0', '5.0'])('lets only the named user call an @OnlyUser route on %s', (version) => {
    const refused = context('mine', version, user(30, ['CDN:CREATE'], 'admin'));
    expect(() => guard.canActivate(refused)).toThrow(new ForbiddenException('only the extension user'));
    expect(isAuthorized(refused.switchToHttp().getRequest())).toBe(false);
    const extension = context('mine', version, { ...user(1, []), username: 'extension' });
    expect(guard.canActivate(extension)).toBe(true);
    expect(isAuthorized(extension.switchToHttp().getRequest())).toBe(true);
  });

  it('refuses a level below the route level with Forbidden.', () => {
    expect(() => guard.canActivate(context('create', '3.0', user(10, ['CDN:CREATE', 'CDN:READ'])))).toThrow(
      new ForbiddenException('Forbidden.'),
    );
  });

  it('checks only the level on 3.x', () => {
    expect(guard.canActivate(context('create', '3.1', user(20, [])))).toBe(true);
  });

  it('names every missing permission, in route order, on 4.0 and later', () => {
    expect(() => guard.canActivate(context('create', '4.0', user(20, [])))).toThrow(
      'missing required Permissions: CDN:CREATE, CDN:READ',
    );
    expect(() => guard.canActivate(context('create', '5.0', user(30, ['CDN:READ'])))).toThrow(
      'missing required Permissions: CDN:CREATE',
    );
    expect(guard.canActivate(context('create', '4.1', user(20, ['CDN:READ', 'CDN:CREATE'])))).toBe(true);
  });

  it('gives the admin role and the ALL permission every permission', () => {
    expect(guard.canActivate(context('create', '4.0', user(30, [], 'admin')))).toBe(true);
    expect(guard.canActivate(context('create', '4.0', user(20, ['ALL'])))).toBe(true);
  });

  it('fails loudly on a route without a rule', () => {
    expect(() => guard.canActivate(context('undeclared', '4.0', user(30, [], 'admin')))).toThrow(
      /declares no authorization rule/,
    );
  });
});
