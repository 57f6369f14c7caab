import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { Public } from 'src/common/decorators/auth.decorators';
import { markRouteMatched } from 'src/common/http/route-match';
import { SessionService } from 'src/modules/auth/session.service';

/**
 * First global guard: every route but the @Public() ones needs a valid session (the signed
 * `mojolicious` cookie → the CurrentUser on `req.user`, else 401 with the original's texts); a
 * valid session is re-issued with a fresh hour on the response (docs/decisions.md#d10, #d18).
 *
 * It asks the SessionService of this application directly rather than through a Passport
 * strategy: Passport built a middleware, a strategy object and its login helpers on every request
 * for what is one call here, and its registry is one per process, where two applications in one
 * process (the scale-out tests) each need their own sessions and cache.
 */
@Injectable()
export class SessionAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    markRouteMatched(req);
    if (this.reflector.getAllAndOverride(Public, [context.getHandler(), context.getClass()])) {
      this.sessions.skipRenewal(req);
      return true;
    }
    // Rejects with the 401 of the case, in the original's words.
    req.user = await this.sessions.signedInUser(req);
    await this.sessions.renew(req, http.getResponse<Response>());
    return true;
  }
}
