import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
// nestjs-pino's request context (its AsyncLocalStorage): the request-log middleware enters it, so
// that every line logged while serving a request is written by that request's child logger.
import { storage } from 'nestjs-pino/storage';
import type { Logger } from 'pino';

/*
 * Nest's side of the process logger (src/common/logging/logger.ts): kept apart so that what only
 * needs the process logger (the cluster's primary, the CLI) does not load Nest.
 */

/** nestjs-pino's logger, reading the request's child logger from its context, else the root. */
class ContextPinoLogger extends PinoLogger {
  constructor(private readonly root: Logger) {
    super({ pinoHttp: { logger: root } });
  }

  override get logger(): Logger {
    return storage.getStore()?.logger ?? this.root;
  }
}

/**
 * Nest's own start-up chatter (a line per module and per route) is debug detail: main.ts writes a
 * short summary instead.
 */
const NEST_BOOTSTRAP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** Where Nest reports a failed start-up with its stack; main.ts says it in one line instead. */
const NEST_STARTUP_FAILURE_CONTEXT = 'ExceptionHandler';

function contextOf(optionalParams: unknown[]): unknown {
  return optionalParams[optionalParams.length - 1];
}

/**
 * The Nest LoggerService (nestjs-pino's Logger): `new Logger(X).log(…)` anywhere, inside a request,
 * writes a line carrying that request's `reqId`.
 */
export class AppLogger extends NestPinoLogger {
  constructor(root: Logger) {
    super(new ContextPinoLogger(root), {});
  }

  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = contextOf(optionalParams);
    if (typeof context === 'string' && NEST_BOOTSTRAP_CONTEXTS.has(context)) {
      super.debug(message, ...optionalParams);
      return;
    }
    super.log(message, ...optionalParams);
  }

  override error(message: unknown, ...optionalParams: unknown[]): void {
    if (contextOf(optionalParams) === NEST_STARTUP_FAILURE_CONTEXT) {
      super.debug(message, ...optionalParams);
      return;
    }
    super.error(message, ...optionalParams);
  }
}
