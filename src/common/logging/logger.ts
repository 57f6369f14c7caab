import { writeSync } from 'node:fs';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
// nestjs-pino's request context (its AsyncLocalStorage): the request-log middleware enters it, so
// that every line logged while serving a request is written by that request's child logger.
import { storage } from 'nestjs-pino/storage';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';

/** The level names LOG_LEVEL accepts: pino's, plus Nest's `log` (= info) and `verbose` (= trace). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'log', 'debug', 'verbose', 'trace', 'silent'];
export const LOG_FORMATS = ['json', 'pretty'];
export type LogFormat = 'json' | 'pretty';

export function pinoLevel(name: string): Level | 'silent' {
  if (name === 'log') {
    return 'info';
  }
  if (name === 'verbose') {
    return 'trace';
  }
  return LOG_LEVELS.includes(name) ? (name as Level | 'silent') : 'info';
}

/**
 * JSON lines unless told otherwise (LOG_FORMAT); without LOG_FORMAT, readable lines when a person
 * is watching (stdout is a terminal) and NODE_ENV is not `production`.
 */
export function logFormatOf(
  env: Record<string, string | undefined>,
  stdoutIsTty = process.stdout.isTTY,
): LogFormat {
  if (env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty') {
    return env.LOG_FORMAT;
  }
  return stdoutIsTty && env.NODE_ENV !== 'production' ? 'pretty' : 'json';
}

export interface LoggerSettings {
  level: string;
  format: LogFormat;
  /** Where lines go (tests); stdout otherwise. */
  destination?: DestinationStream;
}

/** Readable lines, formatted and written synchronously (nothing is lost when the process exits). */
function prettyDestination(destination: DestinationStream | undefined): DestinationStream {
  const format = prettyFactory({
    colorize: destination === undefined && process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
  return {
    write(line: string): void {
      const text = format(line);
      if (destination) {
        destination.write(text);
      } else {
        writeSync(1, text);
      }
    },
  };
}

/** The process's one logger: every line, Nest's and the request log's, is written by it or a child. */
export function createRootLogger({ level, format, destination }: LoggerSettings): Logger {
  const options: pino.LoggerOptions = { level: pinoLevel(level), base: undefined };
  return pino(options, format === 'pretty' ? prettyDestination(destination) : destination);
}

let processRoot: Logger | undefined;

/** The logger of this process, from LOG_LEVEL and LOG_FORMAT (unreadable values fall back to info/json). */
export function processLogger(): Logger {
  processRoot ??= createRootLogger({
    level: process.env.LOG_LEVEL ?? 'info',
    format: logFormatOf(process.env),
  });
  return processRoot;
}

/** Replaces the process's logger (an app factory given a destination, e.g. in tests). */
export function setProcessLogger(logger: Logger): void {
  processRoot = logger;
}

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
