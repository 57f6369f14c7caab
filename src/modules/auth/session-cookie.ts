import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieOptions, Request } from 'express';
import { cookieFrom } from 'src/common/http/cookies';

/**
 * The stateless `mojolicious` session cookie (docs/decisions.md#d10, #d23):
 * base64url(JSON {auth_data, id, gen, sid, expires, by}) + `--` + hex HMAC of that text. Any
 * instance holding the same secret accepts it. `auth_data` is the user name (as the original's), `id`
 * the user's id and `gen` the user's session generation when it was issued: the signed-in user's
 * lookup accepts the cookie only while both still match the user, so that raising the generation
 * (sign-out everywhere, password or role change) ends every session issued before. `sid` names the
 * sign-in the cookie continues (random, kept by every renewal): signing out records it as ended, and
 * only that session stops (docs/decisions.md#d115).
 */
export const SESSION_COOKIE = 'mojolicious';
export const SESSION_SECONDS = 3600;
const ISSUER = 'trafficcontrol-go-tocookie';

export class SessionCookieError extends Error {}

/** Whom a session cookie names. */
export interface SessionClaims {
  username: string;
  userId: number;
  generation: number;
  /** The sign-in this session continues: random, the same in every renewed cookie. */
  sessionId: string;
}

/** A session id: 128 random bits, base64url. */
export function newSessionId(): string {
  return randomBytes(16).toString('base64url');
}

const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

/** The session cookie's value in a `Cookie` request header, if any. */
export function sessionCookieFrom(header: string | undefined): string | undefined {
  return cookieFrom(header, SESSION_COOKIE);
}

/**
 * The cookie's attributes: HttpOnly; SameSite=Lax, so that a browser never sends it with a
 * cross-site POST, PUT or DELETE (top-level links from elsewhere still arrive signed in); Secure
 * when the request came over HTTPS (the server's own TLS, or a trusted proxy's X-Forwarded-Proto).
 */
export function sessionCookieOptions(req: Pick<Request, 'secure'>): CookieOptions {
  return { path: '/', httpOnly: true, sameSite: 'lax', secure: req.secure };
}

interface CookieData {
  auth_data: string;
  id: number;
  gen: number;
  sid: string;
  expires: number;
  by: string;
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

export function issueSessionCookie(secret: string, claims: SessionClaims, now = Date.now()): string {
  const data: CookieData = {
    auth_data: claims.username,
    id: claims.userId,
    gen: claims.generation,
    sid: claims.sessionId,
    expires: Math.floor(now / 1000) + SESSION_SECONDS,
    by: ISSUER,
  };
  const payload = Buffer.from(JSON.stringify(data)).toString('base64url');
  return `${payload}--${sign(secret, payload)}`;
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** Whom a valid cookie names; throws SessionCookieError with the original's 401 text otherwise. */
export function readSessionCookie(secret: string, value: string, now = Date.now()): SessionClaims {
  return unexpired(verifySessionCookie(secret, value), now);
}

/** A cookie whose signature and form were checked: whom it names, and until when (seconds). */
interface VerifiedCookie {
  claims: SessionClaims;
  expires: number;
}

function unexpired(cookie: VerifiedCookie, now: number): SessionClaims {
  if (cookie.expires * 1000 <= now) {
    throw new SessionCookieError('signature expired - unauthorized, please log in');
  }
  return cookie.claims;
}

/** The most verified cookies a reader keeps (it starts again empty past this). */
const MAX_VERIFIED = 10_000;

/**
 * `readSessionCookie` for one secret, remembering the cookies whose signature it verified: the
 * requests of one session carry the same value (re-issued at most once a second), so its HMAC is
 * checked once rather than on every request. Only cookies that passed are kept, keyed by their exact
 * value; expiry is checked on every read; whether the session still stands (the user's generation)
 * is the caller's check, on every request, as before.
 */
export class SessionCookieReader {
  private readonly verified = new Map<string, VerifiedCookie>();

  constructor(private readonly secret: string) {}

  read(value: string, now = Date.now()): SessionClaims {
    let cookie = this.verified.get(value);
    if (!cookie) {
      cookie = verifySessionCookie(this.secret, value);
      if (this.verified.size >= MAX_VERIFIED) {
        this.verified.clear();
      }
      this.verified.set(value, cookie);
    } else if (cookie.expires * 1000 <= now) {
      this.verified.delete(value);
    }
    return unexpired(cookie, now);
  }
}

function verifySessionCookie(secret: string, value: string): VerifiedCookie {
  const dashes = value.lastIndexOf('--');
  if (dashes < 0) {
    throw new SessionCookieError(`error parsing cookie: malformed cookie '${value}' - no dashes`);
  }
  const payload = value.slice(0, dashes);
  const signature = Buffer.from(value.slice(dashes + 2), 'utf8');
  const expected = Buffer.from(sign(secret, payload), 'utf8');
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
    throw new SessionCookieError('bad signature - unauthorized, please log in');
  }
  let data: Partial<CookieData>;
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<CookieData>;
  } catch {
    throw new SessionCookieError(`error parsing cookie: malformed cookie '${value}'`);
  }
  // A cookie signed by an earlier version (without id, generation or session id) is not accepted.
  if (
    typeof data !== 'object' ||
    data === null ||
    typeof data.auth_data !== 'string' ||
    typeof data.expires !== 'number' ||
    !isCount(data.id) ||
    !isCount(data.gen) ||
    typeof data.sid !== 'string' ||
    !SESSION_ID.test(data.sid)
  ) {
    throw new SessionCookieError(`error parsing cookie: malformed cookie '${value}'`);
  }
  return {
    claims: { username: data.auth_data, userId: data.id, generation: data.gen, sessionId: data.sid },
    expires: data.expires,
  };
}
