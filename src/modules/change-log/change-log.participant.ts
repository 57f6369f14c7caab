import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { TransactionParticipant } from 'src/common/database/request-transaction.interceptor';
import type { TransactionManager } from 'src/common/database/unit-of-work';
import { ApiResult } from 'src/common/http/alerts';
import type { CurrentUser } from 'src/common/types/current-user';
import { NotAChange } from 'src/common/decorators/not-a-change.decorator';
import { ChangeLogService } from './change-log.service';
import { segmentOfPath } from 'src/common/http/route-dispatch';

const MAX_MESSAGE = 1024;
/** Fields that name a resource, in the order they are looked for in a write's response. */
const NAME_FIELDS = ['name', 'xmlId', 'hostName', 'username', 'cname'] as const;

/**
 * The change log's part in a signed-in write's transaction (RequestTransactionInterceptor): once
 * the handler succeeded, its entry is added on the same transaction, so neither a partial change nor
 * an entry of a change that did not happen remains. Writes marked @NotAChange (sign-out) add none.
 */
@Injectable()
export class ChangeLogParticipant implements TransactionParticipant {
  constructor(
    private readonly reflector: Reflector,
    private readonly changeLog: ChangeLogService,
  ) {}

  async beforeCommit(context: ExecutionContext, result: unknown, manager: TransactionManager): Promise<void> {
    if (this.reflector.getAllAndOverride(NotAChange, [context.getHandler(), context.getClass()])) {
      return;
    }
    const req = context.switchToHttp().getRequest<Request>();
    const user = req.user as CurrentUser;
    await this.changeLog.record(
      manager,
      user,
      describeChange(req, result),
      segmentOfPath(req.path) ?? 'other',
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
