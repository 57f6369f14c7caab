import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { Options } from 'pino-http';
import type { CurrentUser } from 'src/common/types/current-user';
import { requestIdOf, type WithRequestId } from 'src/common/http/request-id';

/** Nest's level names → pino's. */
const LEVELS: Record<string, string> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** Anything that can carry a credential is written as `[redacted]`. */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'err.config',
  '*.password',
  '*.localPasswd',
  '*.confirmLocalPasswd',
  '*.p',
  '*.secret',
];

type Req = IncomingMessage & WithRequestId & { user?: CurrentUser };

/**
 * Structured JSON request logs (pino-http): one line per request with its id, status and time, the
 * signed-in user and tenant, and — for 5xx — the cause the exception filter attached to the
 * response. Health probes are not logged.
 */
export function pinoHttpOptions(level: string): Options {
  return {
    level: LEVELS[level] ?? 'info',
    genReqId: (req: IncomingMessage) => requestIdOf(req),
    autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health/') },
    customProps: (req: IncomingMessage) => {
      const user = (req as Req).user;
      return user ? { user: user.username, userId: user.id, tenantId: user.tenantId } : {};
    },
    customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
      error || res.statusCode >= 500 ? 'error' : 'info',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    quietReqLogger: true,
  };
}

export function loggerParams(level: string): Params {
  return { pinoHttp: pinoHttpOptions(level) };
}
