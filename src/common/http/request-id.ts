import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request carries its id from the first middleware on (logs, errors and the echoed header agree). */
export interface WithRequestId {
  requestId?: string;
}

/** The caller's `X-Request-Id` when it is a sane token, else a new UUID. */
export function assignRequestId(req: IncomingMessage & WithRequestId): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && ACCEPTABLE.test(given) ? given : randomUUID();
  req.requestId = id;
  return id;
}

export function requestIdOf(req: IncomingMessage & WithRequestId): string {
  return req.requestId ?? assignRequestId(req);
}
