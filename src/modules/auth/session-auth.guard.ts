import { type ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { Public } from 'src/common/decorators/auth.decorators';
import { markRouteMatched } from 'src/common/http/route-match';
import { NOT_LOGGED_IN, SessionService } from './session.service';
import { bindSessions, SESSION_STRATEGY } from './session.strategy';

/**
 * First global guard: every route but the @Public() ones needs a valid session (the signed
 * `mojolicious` cookie → the CurrentUser on `req.user`, else 401 with the original's texts); a
 * valid session is re-issued with a fresh hour on the response (docs/decisions.md#d10, #d18).
 * Passport runs the session strategy, which asks the SessionService of this application (bound to
 * the request: Passport's registry is one per process).
 */
@Injectable()
export class SessionAuthGuard extends AuthGuard(SESSION_STRATEGY) {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    markRouteMatched(req);
    if (this.reflector.getAllAndOverride(Public, [context.getHandler(), context.getClass()])) {
      this.sessions.skipRenewal(req);
      return true;
    }
    bindSessions(req, this.sessions);
    await super.canActivate(context);
    await this.sessions.renew(req, http.getResponse<Response>());
    return true;
  }

  /** Passport's outcome: the strategy's 401 as it was thrown, no user → the original's 401. */
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
