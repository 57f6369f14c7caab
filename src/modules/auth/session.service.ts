import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { refusedAsCrossSite } from 'src/common/http/cross-site';
import type { CurrentUser } from 'src/common/types/current-user';
import { authConfig, type AuthConfig } from 'src/config/auth.config';
import { SessionUserCache, type SessionRecord } from 'src/common/auth/session-user.cache';
import { UsersService } from 'src/modules/users/users.service';
import { EndedSessions } from './ended-sessions';
import {
  issueSessionCookie,
  newSessionId,
  SESSION_COOKIE,
  SessionCookieReader,
  SESSION_SECONDS,
  SessionCookieError,
  sessionCookieFrom,
  sessionCookieOptions,
  type SessionClaims,
} from './session-cookie';

export const NOT_LOGGED_IN = 'unauthorized, please log in.';
export const SESSION_ENDED = 'session ended - unauthorized, please log in';

/** A request's session: the signed-in user and the session id its cookie carries. */
interface Session {
  signedIn: SessionRecord;
  sessionId: string;
}

/** Per request: its session's lookup (made at most once), or `false` when it must not be renewed. */
const SESSION = Symbol('session');
type WithSession = Request & { [SESSION]?: Promise<Session> | false };

/** A session cookie as issued, with what it was issued for. */
interface IssuedCookie {
  username: string;
  userId: number;
  generation: number;
  second: number;
  value: string;
}

/** Whom a sign-in names: a new session of its own is started for them. */
export type SignIn = Omit<SessionClaims, 'sessionId'>;

/**
 * Sessions: the signed `mojolicious` cookie (session-cookie.ts) → the signed-in user, looked up
 * once per request; the renewed cookie on every authenticated response; sign-in and sign-out.
 */
@Injectable()
export class SessionService {
  /**
   * The cookie last issued for each session. Every authenticated response renews the session, and a
   * cookie depends only on its claims and the second it was issued in: the requests of one second
   * get the same value, signed once instead of once per request.
   */
  private readonly issued = new Map<string, IssuedCookie>();
  /** The cookies of this secret, each signature verified once (session-cookie.ts). */
  private readonly cookies: SessionCookieReader;

  constructor(
    private readonly users: UsersService,
    private readonly cache: SessionUserCache,
    private readonly ended: EndedSessions,
    @Inject(authConfig.KEY) private readonly config: AuthConfig,
  ) {
    this.cookies = new SessionCookieReader(config.sessionSecret);
  }

  /** The request's signed-in user; rejects with the 401 of the case, in the original's words. */
  async signedInUser(req: Request): Promise<CurrentUser> {
    return (await this.lookUp(req)).signedIn.user;
  }

  /**
   * Re-issues the request's session with a fresh hour on the response (docs/decisions.md#d18), when the
   * request carries a valid one and the response sets no session cookie of its own. The one place
   * that renews: the session guard calls it once the user is known, the exception filter for
   * failures answered before the guard ran (an unreadable or oversized body, an unknown path).
   * A write refused as cross-site is not renewed: it was not the user's doing. Never throws.
   */
  async renew(req: Request, res: Response): Promise<void> {
    const memo = (req as WithSession)[SESSION];
    if (
      memo === false ||
      (memo === undefined && !sessionCookieFrom(req.headers.cookie)) ||
      refusedAsCrossSite(req)
    ) {
      return;
    }
    let session: Session;
    try {
      session = await this.lookUp(req);
    } catch {
      return;
    }
    if (res.headersSent || setsSessionCookie(res)) {
      return;
    }
    this.setCookie(req, res, {
      username: session.signedIn.user.username,
      userId: session.signedIn.user.id,
      generation: session.signedIn.generation,
      sessionId: session.sessionId,
    });
  }

  /** Public routes: whatever session the request carries is neither checked nor renewed. */
  skipRenewal(req: Request): void {
    (req as WithSession)[SESSION] = false;
  }

  /** Sign-in: a new session (of its own id) for the user, replacing whatever cookie the request carried. */
  start(req: Request, res: Response, signIn: SignIn): void {
    this.skipRenewal(req);
    this.setCookie(req, res, { ...signIn, sessionId: newSessionId() });
  }

  /**
   * Sign-out: ends the request's session (every cookie of that sign-in, on every instance), or with
   * `everywhere` every session of the user; and expires the request's cookie.
   */
  async end(req: Request, res: Response, user: CurrentUser, everywhere: boolean): Promise<void> {
    if (everywhere) {
      await this.users.endSessions(user.id);
    } else {
      await this.ended.end(user.id, (await this.lookUp(req)).sessionId);
    }
    this.skipRenewal(req);
    removeSessionCookies(res);
    res.cookie(SESSION_COOKIE, '', { ...sessionCookieOptions(req), expires: new Date(0) });
  }

  private setCookie(req: Request, res: Response, claims: SessionClaims): void {
    removeSessionCookies(res);
    res.cookie(SESSION_COOKIE, this.cookieFor(claims), {
      ...sessionCookieOptions(req),
      maxAge: SESSION_SECONDS * 1000,
    });
  }

  private cookieFor(claims: SessionClaims, now = Date.now()): string {
    const second = Math.floor(now / 1000);
    const last = this.issued.get(claims.sessionId);
    if (
      last &&
      last.second === second &&
      last.username === claims.username &&
      last.userId === claims.userId &&
      last.generation === claims.generation
    ) {
      return last.value;
    }
    const value = issueSessionCookie(this.config.sessionSecret, claims, second * 1000);
    if (this.issued.size >= 10_000) {
      this.issued.clear();
    }
    this.issued.set(claims.sessionId, {
      username: claims.username,
      userId: claims.userId,
      generation: claims.generation,
      second,
      value,
    });
    return value;
  }

  private lookUp(req: Request): Promise<Session> {
    const withSession = req as WithSession;
    const memo = withSession[SESSION];
    if (memo) {
      return memo;
    }
    const lookup = this.check(req);
    withSession[SESSION] = lookup;
    // Callers that only renew ignore a failed lookup; the guard reports it.
    lookup.catch(() => undefined);
    return lookup;
  }

  private async check(req: Request): Promise<Session> {
    const value = sessionCookieFrom(req.headers.cookie);
    if (!value) {
      throw new UnauthorizedException(NOT_LOGGED_IN);
    }
    let claims: SessionClaims;
    try {
      claims = this.cookies.read(value);
    } catch (error) {
      if (error instanceof SessionCookieError) {
        throw new UnauthorizedException(error.message);
      }
      throw error;
    }
    let session = this.cache.get(claims.userId);
    if (!session) {
      const found = await this.users.findSessionRecord(claims.userId);
      if (!found) {
        throw new UnauthorizedException('user not found');
      }
      session = { ...found, endedSessions: await this.ended.of(claims.userId) };
      this.cache.set(session);
    }
    // A renamed user's old cookies name someone else (or no one); the generation was raised by a
    // sign-out everywhere, a password or a role change after the cookie was issued; the session
    // itself may have been signed out.
    if (session.user.username !== claims.username) {
      throw new UnauthorizedException('user not found');
    }
    if (session.generation !== claims.generation || session.endedSessions.has(claims.sessionId)) {
      throw new UnauthorizedException(SESSION_ENDED);
    }
    return { signedIn: session, sessionId: claims.sessionId };
  }
}

function setCookieHeaders(res: Response): string[] {
  const header = res.getHeader('Set-Cookie');
  return header === undefined ? [] : ([] as string[]).concat(header as string | string[]);
}

function setsSessionCookie(res: Response): boolean {
  return setCookieHeaders(res).some((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
}

/** Takes back the session cookie the response would set, keeping any other cookie. */
function removeSessionCookies(res: Response): void {
  const others = setCookieHeaders(res).filter((cookie) => !cookie.startsWith(`${SESSION_COOKIE}=`));
  if (others.length > 0) {
    res.setHeader('Set-Cookie', others);
  } else {
    res.removeHeader('Set-Cookie');
  }
}
