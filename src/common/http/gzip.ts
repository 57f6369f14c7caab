import compression from 'compression';
import type { NextFunction, Request, Response } from 'express';

/** Bodies smaller than this are sent as they are (gzip gains little on them). */
export const GZIP_THRESHOLD_BYTES = 1024;

/** Whether an Accept-Encoding header accepts gzip (a `gzip` or `x-gzip` coding whose q is not 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) {
    return false;
  }
  for (const part of header.split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (coding !== 'gzip' && coding !== 'x-gzip') {
      continue;
    }
    const q = params.find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) {
      return true;
    }
  }
  return false;
}

/**
 * Responses gzipped for clients that accept gzip, as the original does (it uses no other coding),
 * from GZIP_THRESHOLD_BYTES on. Requests of other clients never enter the compression middleware,
 * so they pay nothing for it. Installed before the response-headers middleware, so that
 * Whole-Content-Sha512 is the digest of the body as the handler wrote it, uncompressed.
 */
export function gzipResponses(threshold = GZIP_THRESHOLD_BYTES) {
  const compress = compression({ threshold });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!acceptsGzip(req.headers['accept-encoding'])) {
      next();
      return;
    }
    // What the middleware negotiates from: gzip only, never br or deflate.
    req.headers['accept-encoding'] = 'gzip';
    compress(req, res, next);
  };
}
