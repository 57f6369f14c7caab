import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Store, storage } from 'nestjs-pino/storage';
import type { Logger } from 'pino';
import { requestIdOf } from 'src/common/http/request-id';
import type { CurrentUser } from 'src/common/types/current-user';
import type { AppMetrics } from 'src/common/metrics/metrics';
import { observeRequest, routeTemplateOf } from 'src/common/metrics/request-metrics';
import { endRequestSpan, runInSpan, startRequestSpan, traceIdOf } from 'src/common/tracing/tracing';
import type { Span } from '@opentelemetry/api';
import { versionInPath } from 'src/common/versioning/api-version';

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
const SPAN = Symbol('request span');

interface Timed {
  [STARTED]?: bigint;
  [SPAN]?: Span;
}

/** pino's standard serializer writes an Error as {type, message, stack}. */
function asError(cause: unknown): Error {
  return cause instanceof Error
    ? cause
    : new Error(cause === undefined ? 'unknown cause' : JSON.stringify(cause));
}

/** The path without its query string (which may hold anything). */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** The request line's fields: never a header, a body, a cookie or a query string. */
function requestLine(req: IncomingMessage, res: ServerResponse): Record<string, unknown> {
  const request = req as Request;
  const started = (res as ServerResponse & Timed)[STARTED];
  const line: Record<string, unknown> = {
    reqId: req.id,
    method: request.method,
    path: pathOf(request.originalUrl),
    status: res.statusCode,
    ms: started === undefined ? undefined : Number((process.hrtime.bigint() - started) / 1000n) / 1000,
  };
  const span = (res as ServerResponse & Timed)[SPAN];
  const traceId = span ? span.spanContext().traceId : traceIdOf(req.headers.traceparent);
  if (traceId !== undefined) {
    line.traceId = traceId;
  }
  const user = request.user as CurrentUser | undefined;
  if (user) {
    line.user = user.username;
    line.userId = user.id;
    line.tenantId = user.tenantId;
  }
  if (!res.writableFinished) {
    line.aborted = true;
  }
  if (isServerError(res.statusCode)) {
    line.err = asError((res as ServerResponse & WithCause).cause);
  }
  return line;
}

/**
 * nestjs-pino's request context, whose logger (the process's, bound to the request id) is made
 * only when something logs during the request: most requests log nothing but their line.
 */
class RequestContext implements Store {
  private child?: Logger;

  constructor(
    private readonly root: Logger,
    private readonly reqId: unknown,
  ) {}

  get logger(): Logger {
    this.child ??= this.root.child({ reqId: this.reqId });
    return this.child;
  }

  set logger(logger: Logger) {
    this.child = logger;
  }
}

/** The request's span closes with its route template, status, user id and API version. */
function endSpan(span: Span, req: Request, res: Response): void {
  const user = req.user as CurrentUser | undefined;
  const version = versionInPath(req.path);
  endRequestSpan(span, req.method, routeTemplateOf(req), res.statusCode, {
    ...(user ? { 'enduser.id': String(user.id) } : {}),
    ...(version ? { 'api.version': version } : {}),
  });
}

/**
 * The request log: one line per request when it ends, on the process's logger, with the request
 * id (and the trace id of the caller's `traceparent` or of the request's span), method, path,
 * status, duration, and the signed-in user and tenant. The same hook counts the request in the
 * metrics (src/common/metrics/request-metrics.ts) and ends its span (src/common/tracing). A server error is logged
 * at error level with the cause the exception filter attached; everything else at info (so at
 * LOG_LEVEL=warn only server errors are logged). Health probes are left out.
 *
 * The rest of the request runs in nestjs-pino's request context: whatever it logs (Nest's Logger,
 * nestjs-pino's PinoLogger) is written by the request's child logger and carries its `reqId`.
 *
 * Written here rather than with pino-http: pino-http makes a child logger bound to the request on
 * every request (a new prototype each time, ~20 µs in V8) and hangs loggers and arrays on the
 * request and the response, all for one line that is usually not even written.
 */
export function requestLog(root: Logger, metrics?: AppMetrics) {
  const logsAll = root.isLevelEnabled('info');
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path.startsWith('/health/')) {
      next();
      return;
    }
    const started = process.hrtime.bigint();
    (res as Response & Timed)[STARTED] = started;
    req.id = requestIdOf(req);
    const span = startRequestSpan(req.method, req.headers.traceparent);
    if (span) {
      (res as Response & Timed)[SPAN] = span;
    }
    // 'finish' when the response was sent, 'close' alone when the connection went first (aborted).
    const ended = (): void => {
      res.off('finish', ended);
      res.off('close', ended);
      if (metrics) {
        observeRequest(req, res, Number(process.hrtime.bigint() - started) / 1e9, metrics);
      }
      if (span) {
        endSpan(span, req, res);
      }
      if (isServerError(res.statusCode)) {
        root.error(requestLine(req, res), 'request failed');
      } else if (logsAll) {
        root.info(requestLine(req, res), 'request');
      }
    };
    res.on('finish', ended);
    res.on('close', ended);
    const context = new RequestContext(root, req.id);
    if (span) {
      storage.run(context, runInSpan, span, next);
    } else {
      storage.run(context, next);
    }
  };
}
