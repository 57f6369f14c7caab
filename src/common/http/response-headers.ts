import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { assignRequestId, REQUEST_ID_HEADER } from 'src/common/http/request-id';
import { answerStatus } from 'src/common/wire/created-from';

export const DIGEST_HEADER = 'Whole-Content-Sha512';

type End = Response['end'];

/**
 * The digest of the bytes of a `res.end(chunk, encoding)` call. A string is hashed as it is encoded
 * on the wire, without first copying it into a Buffer of its own.
 */
export function bodyDigest(chunk: unknown, encoding?: unknown): string {
  const hash = createHash('sha512');
  if (typeof chunk === 'string') {
    hash.update(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  } else if (chunk instanceof Uint8Array) {
    hash.update(chunk);
  }
  return hash.digest('base64');
}

/**
 * The headers of docs/decisions.md#d18 on every response, successes and errors alike: the CORS set, the
 * server name and `Whole-Content-Sha512`, computed over the exact bytes handed to `res.end`
 * (Express sends a body with a single `end` call), and the request id (X-Request-Id, echoed or
 * generated), and the status the envelope chose for a success (src/common/wire/created-from.ts). OPTIONS
 * preflights are answered here (docs/decisions.md#d17).
 */
export function responseHeaders(serverName: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader(
      'Access-Control-Allow-Headers',
      'Origin, X-Requested-With, Content-Type, Accept, Set-Cookie, Cookie',
    );
    res.setHeader('Access-Control-Allow-Methods', 'POST,GET,OPTIONS,PUT,DELETE');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Permissions-Policy', 'interest-cohort=()');
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('X-Server-Name', serverName);
    res.setHeader(REQUEST_ID_HEADER, assignRequestId(req));

    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = function (this: Response, ...args: unknown[]): Response {
      if (!res.headersSent) {
        res.statusCode = answerStatus(res);
        res.setHeader(DIGEST_HEADER, bodyDigest(args[0], args[1]));
      }
      return end(...args);
    } as End;

    if (req.method === 'OPTIONS' && req.path.startsWith('/api/')) {
      res.status(200).end();
      return;
    }
    next();
  };
}
