import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import type { CurrentUser } from 'src/common/types/current-user';
import { SessionService } from './session.service';

export const SESSION_STRATEGY = 'session';

const SESSIONS = Symbol('sessions');

/**
 * Binds the request to the SessionService of the application serving it. Passport keeps its
 * strategies in one registry per process; with the service taken from the request, two
 * applications in one process (the scale-out tests) each answer with their own sessions and cache.
 */
export function bindSessions(req: Request, sessions: SessionService): void {
  (req as Request & { [SESSIONS]?: SessionService })[SESSIONS] = sessions;
}

/** Passport strategy: the signed `mojolicious` cookie → CurrentUser (docs/original-behaviour.md#sign-in). */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, SESSION_STRATEGY) {
  constructor(private readonly sessions: SessionService) {
    super();
  }

  validate(req: Request): Promise<CurrentUser> {
    const bound = (req as Request & { [SESSIONS]?: SessionService })[SESSIONS];
    return (bound ?? this.sessions).signedInUser(req);
  }
}
