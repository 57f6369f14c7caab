import { createHmac, timingSafeEqual } from 'node:crypto';
import { cookieFrom } from 'src/common/http/cookies';

/** The cookie a token may come in when no `Authorization: Bearer` header carries one (RFC 6749). */
export const ACCESS_TOKEN_COOKIE = 'access_token';

/** How long the token sign-in issues is valid: the original's six hours, not renewed. */
export const CDNI_TOKEN_SECONDS = 6 * 3600;

/** A token that cannot be read or verified; the message follows `invalid token: `. */
export class CdniTokenError extends Error {}

/** The registered claims the CDNi routes read from a verified token. */
export interface CdniClaims {
  /** `iss`: the uCDN; '' when absent. */
  issuer: string;
  /** `aud`, a string or a list of strings; [] when absent. */
  audience: string[];
  /** `exp` in seconds since the epoch (fractions dropped); undefined when absent. */
  expiration: number | undefined;
}

/**
 * The token of a request as the original reads it: the word after `Bearer` in an `Authorization`
 * header that mentions `Bearer`, else the `access_token` cookie, else ''.
 */
export function bearerTokenOf(authorization: string | undefined, cookieHeader: string | undefined): string {
  if (authorization && authorization.includes('Bearer')) {
    return authorization.split(' ')[1] ?? '';
  }
  return cookieFrom(cookieHeader, ACCESS_TOKEN_COOKIE) ?? '';
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function jsonObject(part: string): Record<string, unknown> {
  if (!BASE64URL.test(part)) {
    throw new CdniTokenError('failed to parse token');
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new CdniTokenError('failed to parse token');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new CdniTokenError('failed to parse token');
  }
  return value as Record<string, unknown>;
}

function audienceOf(aud: unknown): string[] {
  if (aud === undefined) {
    return [];
  }
  if (typeof aud === 'string') {
    return [aud];
  }
  if (Array.isArray(aud) && aud.every((entry) => typeof entry === 'string')) {
    return aud;
  }
  throw new CdniTokenError('aud must be a string or an array of strings');
}

/**
 * Verifies a compact JWS signed with HMAC-SHA256 under `secret` and answers its claims. Only
 * `HS256` is accepted (never `none` or another algorithm the header names); the signature is
 * compared in constant time. Expiry is the caller's to judge (the original checks it after the
 * signature, with its own text).
 */
export function verifyHs256(token: string, secret: string): CdniClaims {
  const parts = token.split('.');
  if (parts.length !== 3) {
    throw new CdniTokenError('failed to parse token');
  }
  const [headerPart, payloadPart, signaturePart] = parts;
  const header = jsonObject(headerPart);
  if (header.alg !== 'HS256') {
    throw new CdniTokenError('the token is not signed with HS256');
  }
  if (!BASE64URL.test(signaturePart)) {
    throw new CdniTokenError('failed to verify signature');
  }
  const given = Buffer.from(signaturePart, 'base64url');
  const expected = createHmac('sha256', secret).update(`${headerPart}.${payloadPart}`).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new CdniTokenError('failed to verify signature');
  }
  const claims = jsonObject(payloadPart);
  if (claims.iss !== undefined && typeof claims.iss !== 'string') {
    throw new CdniTokenError('iss must be a string');
  }
  if (claims.exp !== undefined && (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp))) {
    throw new CdniTokenError('exp must be a number');
  }
  return {
    issuer: claims.iss ?? '',
    audience: audienceOf(claims.aud),
    expiration: claims.exp === undefined ? undefined : Math.floor(claims.exp),
  };
}

/** A token signed with `secret` (HS256): for the tests, and for operators issuing a uCDN's token. */
export function signHs256(claims: Record<string, unknown>, secret: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}
