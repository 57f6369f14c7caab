import { createHmac, timingSafeEqual } from 'node:crypto';
import { cookieFrom } from 'src/common/http/cookies';

/**
 * The stateless `mojolicious` session cookie (docs/decisions.md#d10, #d23):
 * base64url(JSON {auth_data, expires, by}) + `--` + hex HMAC of that text. Any instance holding the
 * same secret accepts it; nothing is stored on the server.
 */
export const SESSION_COOKIE = 'mojolicious';
export const SESSION_SECONDS = 3600;
const ISSUER = 'trafficcontrol-go-tocookie';

export class SessionCookieError extends Error {}

/** The session cookie's value in a `Cookie` request header, if any. */
export function sessionCookieFrom(header: string | undefined): string | undefined {
  return cookieFrom(header, SESSION_COOKIE);
}

interface CookieData {
  auth_data: string;
  expires: number;
  by: string;
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

export function issueSessionCookie(secret: string, username: string, now = Date.now()): string {
  const data: CookieData = {
    auth_data: username,
    expires: Math.floor(now / 1000) + SESSION_SECONDS,
    by: ISSUER,
  };
  const payload = Buffer.from(JSON.stringify(data)).toString('base64url');
  return `${payload}--${sign(secret, payload)}`;
}

/** The user name a valid cookie names; throws SessionCookieError with the original's 401 text otherwise. */
export function readSessionCookie(secret: string, value: string, now = Date.now()): string {
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
  if (typeof data.auth_data !== 'string' || typeof data.expires !== 'number') {
    throw new SessionCookieError(`error parsing cookie: malformed cookie '${value}'`);
  }
  if (data.expires * 1000 <= now) {
    throw new SessionCookieError('signature expired - unauthorized, please log in');
  }
  return data.auth_data;
}
