import { type ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { Public } from 'src/common/decorators/auth.decorators';
import { markRouteMatched } from 'src/common/http/route-match';
import type { CurrentUser } from 'src/common/types/current-user';
import { authConfig, type AuthConfig } from 'src/config/auth.config';
import { issueSessionCookie, SESSION_COOKIE, SESSION_SECONDS } from 'src/modules/auth/session-cookie';
import { NOT_LOGGED_IN, SESSION_STRATEGY } from 'src/modules/auth/session.strategy';

export function setSessionCookie(res: Response, secret: string, username: string): void {
  res.cookie(SESSION_COOKIE, issueSessionCookie(secret, username), {
    path: '/',
    httpOnly: true,
    maxAge: SESSION_SECONDS * 1000,
  });
}

/**
 * First global guard: every route but the @Public() ones needs a valid session; a valid session is
 * re-issued with a fresh hour on the response (docs/decisions.md#d10, #d18).
 */
@Injectable()
export class SessionAuthGuard extends AuthGuard(SESSION_STRATEGY) {
  constructor(
    private readonly reflector: Reflector,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    markRouteMatched(context.switchToHttp().getRequest<Request>());
    if (this.reflector.getAllAndOverride(Public, [context.getHandler(), context.getClass()])) {
      return true;
    }
    await super.canActivate(context);
    const http = context.switchToHttp();
    const user = http.getRequest<Request>().user as CurrentUser;
    setSessionCookie(http.getResponse<Response>(), this.config.sessionSecret, user.username);
    return true;
  }

  override handleRequest<TUser>(error: unknown, user: TUser | false): TUser {
    if (error) {
      throw error instanceof Error ? error : new UnauthorizedException(NOT_LOGGED_IN);
    }
    if (!user) {
      throw new UnauthorizedException(NOT_LOGGED_IN);
    }
    return user;
  }
}
