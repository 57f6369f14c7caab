import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { inRequestTransaction } from 'src/common/database/request-transaction';
import { Public } from 'src/common/decorators/auth.decorators';
import { ApiResult } from 'src/common/http/alerts';
import type { CurrentUser } from 'src/common/types/current-user';
import { NotAChange } from './change-log.decorator';
import { ChangeLogService } from './change-log.service';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_MESSAGE = 1024;
/** Fields that name a resource, in the order they are looked for in a write's response. */
const NAME_FIELDS = ['name', 'xmlId', 'hostName', 'username', 'cname'] as const;

/**
 * Every signed-in write request is one transaction: the handler and everything it calls run on
 * the request's own query runner (RequestScopedDataSource), and when it succeeds the change-log
 * entry is added in the same transaction before the commit. A failing request rolls back whatever
 * it wrote, so neither a partial change nor a log entry of a change that did not happen remains.
 */
@Injectable()
export class ChangeLogInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly changeLog: ChangeLogService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const user = req.user as CurrentUser | undefined;
    const targets = [context.getHandler(), context.getClass()];
    if (
      !WRITE_METHODS.has(req.method) ||
      !user ||
      this.reflector.getAllAndOverride(Public, targets) ||
      this.reflector.getAllAndOverride(NotAChange, targets)
    ) {
      return next.handle();
    }
    return from(
      inRequestTransaction(this.dataSource, async (runner) => {
        const result: unknown = await lastValueFrom(next.handle());
        await this.changeLog.record(runner.manager, user.id, describeChange(req, result));
        return result;
      }),
    );
  }
}

/**
 * Who did what to which resource, in words: the method and path (without `/api/<version>`), the
 * id and name of the one record the response carries, and the success alerts, e.g.
 * `POST /cdns (id 7, name cdn1): cdn was created.`
 */
export function describeChange(req: Pick<Request, 'method' | 'originalUrl'>, result: unknown): string {
  const path = req.originalUrl.replace(/^\/api\/[^/]+/, '');
  const response: unknown = result instanceof ApiResult ? (result as ApiResult<unknown>).response : result;
  // Some writes answer their one record in an array (e.g. POST deliveryservices).
  const body: unknown = Array.isArray(response) && response.length === 1 ? response[0] : response;
  const identity: string[] = [];
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (typeof record.id === 'number') {
      identity.push(`id ${record.id}`);
    }
    const nameField = NAME_FIELDS.find((field) => typeof record[field] === 'string');
    if (nameField) {
      identity.push(`${nameField} ${String(record[nameField])}`);
    }
  }
  const alerts = result instanceof ApiResult ? result.alerts.filter((a) => a.level === 'success') : [];
  const message =
    `${req.method} ${path}` +
    (identity.length > 0 ? ` (${identity.join(', ')})` : '') +
    (alerts.length > 0 ? `: ${alerts.map((a) => a.text).join(' ')}` : '');
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
}
