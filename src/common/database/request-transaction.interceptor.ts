import {
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { DataSource, type EntityManager } from 'typeorm';
import { withCertificationRetry } from 'src/common/database/certification-retry';
import { inRequestTransaction } from 'src/common/database/request-transaction';
import { Public } from 'src/common/decorators/auth.decorators';
import type { CurrentUser } from 'src/common/types/current-user';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What takes part in a write request's transaction after its handler succeeded (the change log). */
export interface TransactionParticipant {
  /** Runs on the request's transaction, before the commit; throwing rolls the whole request back. */
  beforeCommit(context: ExecutionContext, result: unknown, manager: EntityManager): Promise<void>;
}

/** The participants, in the order they run (provided by AppModule). */
export const TRANSACTION_PARTICIPANTS = Symbol('TRANSACTION_PARTICIPANTS');

/** Whether the request is a signed-in write: the requests that run in one transaction each. */
export function isSignedInWrite(req: Request, isPublic: boolean): req is Request & { user: CurrentUser } {
  return WRITE_METHODS.has(req.method) && req.user !== undefined && !isPublic;
}

/**
 * Every signed-in write request is one database transaction. The handler and everything it calls
 * run on the request's own query runner (RequestScopedDataSource: repositories, query builders and
 * the services' own `transaction()` calls, which become savepoints, all join it); the conditional
 * checks inside it lock the row they compare. When the handler succeeds, each participant runs on
 * the same transaction, then it commits; any failure rolls everything back. A certification failure
 * of a Galera cluster (or a deadlock) runs the whole request again, a few times
 * (certification-retry.ts; docs/scaling-out.md). Its place among the
 * global interceptors (inside the envelope, outside the conditional checks) is tested
 * (src/app.interceptors.spec.ts).
 */
@Injectable()
export class RequestTransactionInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(TRANSACTION_PARTICIPANTS) private readonly participants: TransactionParticipant[],
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const isPublic =
      this.reflector.getAllAndOverride(Public, [context.getHandler(), context.getClass()]) === true;
    if (!isSignedInWrite(req, isPublic)) {
      return next.handle();
    }
    // Each attempt runs the handler again (next.handle() calls it anew), on a fresh transaction.
    return from(
      withCertificationRetry(() =>
        inRequestTransaction(this.dataSource, async (runner) => {
          const result: unknown = await lastValueFrom(next.handle());
          for (const participant of this.participants) {
            await participant.beforeCommit(context, result, runner.manager);
          }
          return result;
        }),
      ),
    );
  }
}
