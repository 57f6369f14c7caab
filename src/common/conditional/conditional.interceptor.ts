import {
  type CallHandler,
  type ExecutionContext,
  HttpException,
  HttpStatus,
  Injectable,
  type NestInterceptor,
  PreconditionFailedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request, Response } from 'express';
import { from, map, mergeMap, type Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { etagOf, parseHttpDate, parseIfMatch, seconds } from 'src/common/conditional/http-dates';
import { ApiResult } from 'src/common/http/alerts';
import { toDate } from 'src/common/time/timestamps';

export const MODIFIED_TEXT = 'resource was modified since the time specified by the request headers';

/** How long a table's last change, once read, may answer "changed since" without a query. */
const KNOWN_CHANGE_MS = 5000;

/** Thrown to answer 304: the exception filter sends it without a body. */
export class NotModifiedException extends HttpException {
  constructor(readonly lastModified: Date) {
    super('Not Modified', HttpStatus.NOT_MODIFIED);
  }
}

/**
 * Conditional requests on the routes of a controller marked @ConditionalOn(table) (docs/decisions.md#d33):
 * - GET with If-Modified-Since: 304 when the table's newest `last_updated` and its last deletion
 *   (`last_deleted`, kept by triggers) are not later; otherwise the list, with Last-Modified.
 * - PUT/DELETE of `:id` (or `?id=`) with If-Unmodified-Since or If-Match (`"v1-…"` ETags): 412 when
 *   the row changed later.
 * - Write responses holding one record with a `lastUpdated` get its ETag and Last-Modified.
 * Requests without these headers cost nothing more.
 */
@Injectable()
export class ConditionalRequestInterceptor implements NestInterceptor {
  /**
   * The last change of each table as last read, and when it was read. A table's last change only
   * ever moves forward (a deletion is recorded in `last_deleted`), so a known change later than
   * If-Modified-Since proves the list changed (200) without asking the database again; only a
   * possible 304 is always checked against the database, so no instance answers 304 wrongly.
   */
  private readonly knownChanges = new Map<string, { change: Date; readAt: number }>();

  constructor(
    private readonly reflector: Reflector,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const table = this.reflector.getAllAndOverride(ConditionalOn, [context.getHandler(), context.getClass()]);
    if (!table) {
      return next.handle();
    }
    if (!/^[a-z_]+$/.test(table)) {
      throw new Error(`@ConditionalOn needs a table name, not ${table}`);
    }
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    if (req.method === 'GET') {
      const since = parseHttpDate(req.headers['if-modified-since']);
      if (!since) {
        return next.handle();
      }
      const known = this.knownChanges.get(table);
      if (known && Date.now() - known.readAt < KNOWN_CHANGE_MS && seconds(known.change) > seconds(since)) {
        res.setHeader('Last-Modified', known.change.toUTCString());
        return next.handle();
      }
      return from(this.lastChange(table)).pipe(
        mergeMap((changed) => {
          if (changed && seconds(changed) <= seconds(since)) {
            throw new NotModifiedException(changed);
          }
          if (changed) {
            res.setHeader('Last-Modified', changed.toUTCString());
          }
          return next.handle();
        }),
      );
    }
    const unmodifiedSince = this.unmodifiedSince(req);
    const id = this.idOf(req);
    const checked =
      unmodifiedSince && id !== undefined && (req.method === 'PUT' || req.method === 'DELETE')
        ? from(this.assertUnmodified(table, id, unmodifiedSince)).pipe(mergeMap(() => next.handle()))
        : next.handle();
    return checked.pipe(map((result: unknown) => this.withValidators(result, res)));
  }

  private unmodifiedSince(req: Request): Date | undefined {
    const dates = [parseHttpDate(req.headers['if-unmodified-since']), parseIfMatch(req.headers['if-match'])];
    const given = dates.filter((d): d is Date => d !== undefined);
    return given.length === 0 ? undefined : new Date(Math.min(...given.map((d) => d.getTime())));
  }

  private idOf(req: Request): number | undefined {
    const raw =
      (req.params as Record<string, string | undefined>).id ?? (req.query as Record<string, unknown>).id;
    return typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
  }

  /** The newest change of `table`: its latest `last_updated` or its last deletion. */
  private async lastChange(table: string): Promise<Date | undefined> {
    const rows: { changed: Date | string | null; deleted: Date | string | null }[] =
      await this.dataSource.query(
        `SELECT (SELECT MAX(last_updated) FROM ${table}) AS changed, ` +
          '(SELECT last_updated FROM last_deleted WHERE table_name = ?) AS deleted',
        [table],
      );
    const times = [rows[0]?.changed, rows[0]?.deleted]
      .filter((t): t is Date | string => t !== null && t !== undefined)
      .map((t) => toDate(t).getTime());
    if (times.length === 0) {
      return undefined;
    }
    const change = new Date(Math.max(...times));
    this.knownChanges.set(table, { change, readAt: Date.now() });
    return change;
  }

  private async assertUnmodified(table: string, id: number, since: Date): Promise<void> {
    const rows = await this.dataSource.query<{ last_updated: Date | string }[]>(
      `SELECT last_updated FROM ${table} WHERE id = ?`,
      [id],
    );
    if (rows[0] && seconds(toDate(rows[0].last_updated)) > seconds(since)) {
      throw new PreconditionFailedException(MODIFIED_TEXT);
    }
  }

  private withValidators(result: unknown, res: Response): unknown {
    const record: unknown = result instanceof ApiResult ? (result as ApiResult<unknown>).response : undefined;
    const lastUpdated = (record as { lastUpdated?: unknown } | undefined)?.lastUpdated;
    if (lastUpdated instanceof Date && !res.headersSent) {
      res.setHeader('ETag', etagOf(lastUpdated));
      res.setHeader('Last-Modified', lastUpdated.toUTCString());
    }
    return result;
  }
}
