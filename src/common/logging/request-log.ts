import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Store, storage } from 'nestjs-pino/storage';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { requestIdOf } from 'src/common/http/request-id';
import type { CurrentUser } from 'src/common/types/current-user';

/** What the exception filter leaves on a server error's response for its log line. */
export interface WithCause {
  cause?: unknown;
}

/**
 * A failure of the server (logged at error level, with its cause). Client errors are not: every
 * 4xx, and 501, which answers a request for an API version or feature this server does not have.
 */
export function isServerError(status: number): boolean {
  return status >= 500 && status !== 501;
}

const STARTED = Symbol('request started');

interface Timed {
  [STARTED]?: bigint;
}

/** pino's standard serializer writes an Error as {type, message, stack}. */
function asError(cause: unknown): Error {
  return cause instanceof Error
    ? cause
    : new Error(cause === undefined ? 'unknown cause' : JSON.stringify(cause));
}

/** The request line's fields: never a header, a body, a cookie or a query string. */
function requestLine(req: IncomingMessage, res: ServerResponse): Record<string, unknown> {
  const request = req as Request;
  const user = request.user as CurrentUser | undefined;
  const started = (res as ServerResponse & Timed)[STARTED];
  const status = res.statusCode;
  return {
    method: request.method,
    path: request.originalUrl.split('?')[0],
    status,
    ms: started === undefined ? undefined : Number((process.hrtime.bigint() - started) / 1000n) / 1000,
    ...(user ? { user: user.username, userId: user.id, tenantId: user.tenantId } : {}),
    ...(res.writableFinished ? {} : { aborted: true }),
    ...(isServerError(status) ? { err: asError((res as ServerResponse & WithCause).cause) } : {}),
  };
}

const omitted = (): undefined => undefined;

/**
 * The request log (pino-http on the process's logger): one line per request when it ends, with the
 * request id, method, path, status, duration, and the signed-in user and tenant. A server error is
 * logged at error level with the cause the exception filter attached; everything else at info (so
 * at LOG_LEVEL=warn only server errors are logged). Health probes are left out.
 *
 * The rest of the request runs in nestjs-pino's request context: whatever it logs (Nest's Logger,
 * nestjs-pino's PinoLogger) is written by the request's child logger and carries its `reqId`.
 */
export function requestLog(root: Logger) {
  const logsAll = root.isLevelEnabled('info');
  const http = pinoHttp({
    logger: root as never,
    genReqId: (req) => requestIdOf(req),
    // The request's loggers carry only its id; the line's fields are requestLine's.
    quietReqLogger: true,
    quietResLogger: true,
    wrapSerializers: false,
    serializers: { req: omitted, res: omitted },
    customLogLevel: (_req, res) => (isServerError(res.statusCode) ? 'error' : logsAll ? 'info' : 'silent'),
    customSuccessObject: requestLine,
    customErrorObject: requestLine,
    customSuccessMessage: () => 'request',
    customErrorMessage: (_req, res) => (isServerError(res.statusCode) ? 'request failed' : 'request'),
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path.startsWith('/health/')) {
      next();
      return;
    }
    (res as Response & Timed)[STARTED] = process.hrtime.bigint();
    http(req, res, () => storage.run(new Store(req.log as unknown as Logger), next));
  };
}
