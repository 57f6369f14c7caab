import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Inject,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { NotModifiedException } from 'src/common/conditional/conditional.interceptor';
import { classifyDbError } from 'src/common/database/db-error';
import { countDbFailure } from 'src/common/metrics/metrics';
import { mapDbFailure, type MappedError } from 'src/common/filters/db-error.map';
import { errorAlert } from 'src/common/http/alerts';
import { sendAlerts } from 'src/common/http/json';
import { isRouteMatched } from 'src/common/http/route-match';
import { isServerError, type WithCause } from 'src/common/logging/request-log';
import { isServedVersion, versionInPath } from 'src/common/versioning/api-version';
import { SESSION_RENEWAL, type SessionRenewal } from 'src/common/auth/session-renewal';

export const NOT_IMPLEMENTED_VERSION_TEXT =
  'The requested api version is not implemented by this server. If you are using a newer client with an ' +
  'older server, you will need to use an older client version or upgrade your server.';

function httpExceptionText(exception: HttpException): string {
  const body = exception.getResponse();
  if (typeof body === 'string') {
    return body;
  }
  const message = (body as { message?: unknown }).message;
  if (Array.isArray(message)) {
    return message.join(', ');
  }
  return typeof message === 'string' ? message : exception.message;
}

/**
 * The one place failures become responses (docs/decisions.md#d7, #d8, #d9): every error answers
 * `{"alerts":[{"text", "level":"error"}]}` with the original's status and text; unexpected errors
 * are logged and answer a bare 500.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger(AllExceptionsFilter.name);

  constructor(@Inject(SESSION_RENEWAL) private readonly sessions: SessionRenewal) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (exception instanceof NotModifiedException) {
      res.status(304).setHeader('Last-Modified', exception.lastModified.toUTCString());
      res.end();
      return;
    }
    const { status, text } = this.map(exception, req);
    if (isServerError(status)) {
      // The request's log line carries the cause (one line per server error; request-log.ts).
      (res as Response & WithCause).cause = exception;
    }
    if (res.headersSent) {
      this.logger.error(`error after the response was sent: ${text}`);
      return;
    }
    // A signed-in request refused before the session guard ran (an unreadable or oversized body, an
    // unknown path) renews its session like any other (docs/decisions.md#d18).
    await this.sessions.renew(req, res);
    if (!res.headersSent) {
      sendAlerts(res, status, [errorAlert(text)]);
    }
  }

  private map(exception: unknown, req: Request): MappedError {
    if (exception instanceof NotFoundException && !isRouteMatched(req)) {
      return this.unmatchedRoute(req);
    }
    if (exception instanceof HttpException) {
      return { status: exception.getStatus(), text: httpExceptionText(exception) };
    }
    const failure = classifyDbError(exception);
    if (failure) {
      countDbFailure(failure.kind, exception);
      return mapDbFailure(failure);
    }
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, text: 'Internal Server Error' };
  }

  /** A well-formed version we do not serve is a 501, anything else a 404 (docs/decisions.md#d1). */
  private unmatchedRoute(req: Request): MappedError {
    const version = versionInPath(req.path);
    if (version !== undefined && !isServedVersion(version)) {
      return { status: HttpStatus.NOT_IMPLEMENTED, text: NOT_IMPLEMENTED_VERSION_TEXT };
    }
    return { status: HttpStatus.NOT_FOUND, text: `The requested path '${req.path}' does not exist.` };
  }
}
