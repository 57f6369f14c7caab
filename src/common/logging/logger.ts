import { writeSync } from 'node:fs';
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
