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
import { from, lastValueFrom, map, mergeMap, type Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import {
  ConditionalOn,
  type ConditionalSpec,
  conditionalSpec,
  intParamOf,
  type RowKey,
} from 'src/common/conditional/conditional.decorator';
import { etagOf, parseHttpDate, parseIfMatch, seconds } from 'src/common/conditional/http-dates';
import { lockingClause } from 'src/common/database/locks';
import { UnitOfWork } from 'src/common/database/unit-of-work';
import { ApiResult } from 'src/common/http/alerts';
import { toDate } from 'src/common/time/timestamps';

export const MODIFIED_TEXT = 'resource was modified since the time specified by the request headers';

/** Table and column names are written into SQL: plain lower-case identifiers only. */
const SQL_NAME = /^[a-z_]+$/;

/** How long a table's last change, once read, may answer "changed since" without a query. */
const KNOWN_CHANGE_MS = 5000;

/**
 * The row a PUT/DELETE addresses: the route's own reading, else the integer `id` of the path or of
 * the query string. A reading that fails means the request names no row: its handler answers 400.
 */
function rowOf(spec: ConditionalSpec, req: Request): RowKey | undefined {
  if (!spec.row) {
    const id = intParamOf(req, 'id');
    return id === undefined ? undefined : { id };
  }
  try {
    return spec.row(req);
  } catch {
    return undefined;
  }
}

/** Thrown to answer 304: the exception filter sends it without a body. */
export class NotModifiedException extends HttpException {
  constructor(readonly lastModified: Date) {
    super('Not Modified', HttpStatus.NOT_MODIFIED);
  }
}

/**
 * Conditional requests on the routes of a controller marked @ConditionalOn(table) (docs/decisions.md#d33):
 * - GET with If-Modified-Since: 304 when the table's newest `last_updated` and its last deletion
 *   (`last_deleted`, kept by triggers) are not later, or when the table never held a row (so a
 *   date in the future is always 304); otherwise the list, with Last-Modified. A GET that names
 *   several tables takes the latest of their changes, and 304 when none of them ever held a row.
 * - PUT/DELETE of one row (`:id`, `?id=`, or the route's own key) with If-Unmodified-Since or
 *   If-Match (`"v1-…"` ETags): 412 when the row changed after that instant. The check locks the row
 *   inside the write's own transaction, so of concurrent writes holding one ETag only the first
 *   passes; the others wait for it and then see the row changed.
 * - Write responses holding one record with a `lastUpdated` get its ETag and Last-Modified.
 * Requests without these headers cost nothing more.
 */
@Injectable()
export class ConditionalRequestInterceptor implements NestInterceptor {
  /**
   * The last change of each table (or set of tables, keyed by their names joined with commas) as
   * last read, and when it was read. A table's last change only ever moves forward (a deletion is
   * recorded in `last_deleted`), so a known change later than If-Modified-Since proves the list
   * changed (200) without asking the database again; only a possible 304 is always checked against
   * the database, so no instance answers 304 wrongly.
   */
  private readonly knownChanges = new Map<string, { change: Date; readAt: number }>();

  constructor(
    private readonly reflector: Reflector,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const declared = this.reflector.getAllAndOverride(ConditionalOn, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!declared) {
      return next.handle();
    }
    const spec = conditionalSpec(declared);
    if (spec.tables.length === 0 || !spec.tables.every((table) => SQL_NAME.test(table))) {
      throw new Error(`@ConditionalOn needs table names, not ${spec.tables.join(', ')}`);
    }
    const tables = spec.tables;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    if (req.method === 'GET') {
      const since = parseHttpDate(req.headers['if-modified-since']);
      if (!since) {
        return next.handle();
      }
      const known = this.knownChanges.get(tables.join(','));
      if (known && Date.now() - known.readAt < KNOWN_CHANGE_MS && seconds(known.change) > seconds(since)) {
        res.setHeader('Last-Modified', known.change.toUTCString());
        return next.handle();
      }
      return from(this.lastChange(tables)).pipe(
        mergeMap((changed) => {
          if (!changed) {
            // Nothing was ever written to or deleted from the tables: every copy is current
            // (docs/decisions.md#d85).
            throw new NotModifiedException(new Date(Math.min(since.getTime(), Date.now())));
          }
          if (seconds(changed) <= seconds(since)) {
            throw new NotModifiedException(changed);
          }
          res.setHeader('Last-Modified', changed.toUTCString());
          return next.handle();
        }),
      );
    }
    const since = req.method === 'PUT' || req.method === 'DELETE' ? this.unmodifiedSince(req) : undefined;
    const row = since ? rowOf(spec, req) : undefined;
    if (!since || !row) {
      return next.handle().pipe(map((result: unknown) => this.withValidators(result, res)));
    }
    if (tables.length !== 1) {
      throw new Error(
        `@ConditionalOn(${tables.join(', ')}) names several tables: no row for a write to check`,
      );
    }
    // In the request's write transaction (the change log opens it), before the handler: the row
    // stays locked until the write commits, so no other write can come in between.
    const checked = this.unitOfWork.run(async () => {
      await this.assertUnmodified(spec, row, since);
      return lastValueFrom<unknown, undefined>(next.handle(), { defaultValue: undefined });
    });
    return from(checked).pipe(map((result: unknown) => this.withValidators(result, res)));
  }

  /**
   * The instant the client last saw the row: the earlier of If-Unmodified-Since (whole seconds) and
   * the newest `"v1-…"` ETag of If-Match (milliseconds); other ETags are ignored, as the original does.
   */
  private unmodifiedSince(req: Request): Date | undefined {
    const dates = [parseHttpDate(req.headers['if-unmodified-since']), parseIfMatch(req.headers['if-match'])];
    const given = dates.filter((d): d is Date => d !== undefined);
    return given.length === 0 ? undefined : new Date(Math.min(...given.map((d) => d.getTime())));
  }

  /**
   * The newest change of `tables`: the latest `last_updated` of any of them or their last deletion,
   * in one query (each MAX reads one entry of the table's `last_updated` index).
   */
  private async lastChange(tables: readonly string[]): Promise<Date | undefined> {
    const newest = tables.map((table, i) => `(SELECT MAX(last_updated) FROM ${table}) AS changed${i}`);
    const rows = await this.dataSource.query<Record<string, Date | string | null>[]>(
      `SELECT ${newest.join(', ')}, (SELECT MAX(last_updated) FROM last_deleted ` +
        `WHERE table_name IN (${tables.map(() => '?').join(', ')})) AS deleted`,
      [...tables],
    );
    const times = Object.values(rows[0] ?? {})
      .filter((t): t is Date | string => t !== null && t !== undefined)
      .map((t) => toDate(t).getTime());
    if (times.length === 0) {
      return undefined;
    }
    const change = new Date(Math.max(...times));
    this.knownChanges.set(tables.join(','), { change, readAt: Date.now() });
    return change;
  }

  /**
   * Locks the addressed row (`SELECT … FOR UPDATE` on MySQL; on SQLite the write transaction already
   * excludes every other writer) and answers 412 when it changed after `since`. `last_updated` moves
   * forward by at least a millisecond on every write (migration 1763850000000), so an ETag, which
   * carries it to the millisecond, goes stale with the next write. A missing row passes: the
   * handler answers its own 404.
   */
  private async assertUnmodified(spec: ConditionalSpec, row: RowKey, since: Date): Promise<void> {
    const [table] = spec.tables;
    const columns = Object.keys(row);
    if (columns.length === 0 || !columns.every((column) => SQL_NAME.test(column))) {
      throw new Error(`@ConditionalOn(${table}) names its row by columns, not ${columns.join(', ')}`);
    }
    const rows = await this.dataSource.query<{ last_updated: Date | string }[]>(
      `SELECT last_updated FROM ${table} WHERE ${columns.map((c) => `${c} = ?`).join(' AND ')}` +
        lockingClause(this.dataSource, 'write'),
      columns.map((c) => row[c]),
    );
    if (rows.some((r) => toDate(r.last_updated).getTime() > since.getTime())) {
      throw new PreconditionFailedException(spec.modifiedText ?? MODIFIED_TEXT);
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
