import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { requestIdOf } from 'src/common/http/request-id';
import type { CurrentUser } from 'src/common/types/current-user';

/** What the exception filter leaves on a 5xx response for its log line. */
export interface WithCause {
  cause?: unknown;
}

/** pino's standard serializer writes an Error as {type, message, stack}. */
function asError(cause: unknown): Error {
  return cause instanceof Error
    ? cause
    : new Error(cause === undefined ? 'unknown cause' : JSON.stringify(cause));
}

/**
 * One structured JSON line per request when it ends: request id, method, path, status, duration,
 * and the signed-in user and tenant. Headers and bodies are never logged, so cookies, tokens and
 * passwords cannot reach the log. A 5xx is logged at error level with the cause the exception
 * filter attached; other requests at info. Health probes are left out. Nothing but a `finish`
 * listener is spent on a request whose line the level filters out.
 */
export function requestLog(logger: Logger) {
  const logsAll = logger.isLevelEnabled('info');
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path.startsWith('/health/')) {
      next();
      return;
    }
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const failed = res.statusCode >= 500;
      if (!failed && !logsAll) {
        return;
      }
      const user = req.user as CurrentUser | undefined;
      const line = {
        reqId: requestIdOf(req),
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        ...(user ? { user: user.username, userId: user.id, tenantId: user.tenantId } : {}),
        ...(failed ? { err: asError((res as Response & WithCause).cause) } : {}),
      };
      if (failed) {
        logger.error(line, 'request failed');
      } else {
        logger.info(line, 'request');
      }
    });
    next();
  };
}
