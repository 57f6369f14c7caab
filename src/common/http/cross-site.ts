import { ForbiddenException, HttpException, HttpStatus } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const REFUSED = Symbol('refused as cross-site');

export const CROSS_SITE_REFUSED =
  'cross-site request refused: this service accepts writes from browsers only from its own origin ' +
  'and the origins in ALLOWED_ORIGINS';
export const JSON_REQUIRED =
  'a write sent by a browser from another origin must have the Content-Type application/json';

/**
 * Whether this request was refused as a cross-site write: it is answered without renewing the
 * session it carries, as it was not the user's doing.
 */
export function refusedAsCrossSite(req: Request): boolean {
  return (req as Request & { [REFUSED]?: boolean })[REFUSED] === true;
}

function refuse(req: Request, next: NextFunction, error: HttpException): void {
  (req as Request & { [REFUSED]?: boolean })[REFUSED] = true;
  next(error);
}

/** The origin (`scheme://host:port`) the request was addressed to, as a browser writes origins. */
function ownOrigin(req: Request): string | undefined {
  if (!req.host) {
    return undefined;
  }
  try {
    return new URL(`${req.protocol}://${req.host}`).origin;
  } catch {
    return undefined;
  }
}

/** `application/json`, or `application/<anything>+json`, with or without parameters. */
function isJson(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Refuses cross-site writes (docs/decisions.md#d19): a page on another site must not make a signed-in
 * browser create, change or delete anything, nor sign it in (login CSRF). Checked before the body
 * is read, for every POST, PUT, PATCH and DELETE under /api/:
 *
 * 1. No `Origin` and no `Sec-Fetch-Site`: not a browser (curl, the Go and Python clients, t3c): allowed.
 * 2. `Origin` is the service's own (the scheme, host and port the request was addressed to) or one
 *    of ALLOWED_ORIGINS: allowed.
 * 3. ALLOWED_ORIGINS is set and `Origin` is another one: 403.
 * 4. `Sec-Fetch-Site` says `cross-site` or `same-site` (set by the browser, which pages cannot
 *    forge): 403.
 * 5. Another origin without such a header — a browser that does not send it, or Traffic Portal's
 *    proxy, which passes the browser's `Origin` on with the Host rewritten to this service and
 *    `Sec-Fetch-Site: same-origin` — must send JSON, else 415: a page can send a form or text
 *    anywhere without asking, but JSON to another origin needs a CORS preflight, which fails for
 *    credentialed requests against this service's `Access-Control-Allow-Origin: *`. With
 *    `Sec-Fetch-Site: same-origin` (or `none`, typed by the user) the request came from a page of
 *    the origin the browser addressed, i.e. through that proxy: allowed.
 */
export function crossSiteWrites(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!WRITES.has(req.method) || !req.path.startsWith('/api/')) {
      next();
      return;
    }
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    if (origin === undefined && site === undefined) {
      next();
      return;
    }
    if (origin !== undefined && (allowed.has(origin) || origin === ownOrigin(req))) {
      next();
      return;
    }
    if ((origin !== undefined && allowed.size > 0) || site === 'cross-site' || site === 'same-site') {
      refuse(req, next, new ForbiddenException(CROSS_SITE_REFUSED));
      return;
    }
    if (site === 'same-origin' || site === 'none' || isJson(req.headers['content-type'])) {
      next();
      return;
    }
    refuse(req, next, new HttpException(JSON_REQUIRED, HttpStatus.UNSUPPORTED_MEDIA_TYPE));
  };
}
