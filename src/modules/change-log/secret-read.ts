import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { concatMap, type Observable } from 'rxjs';
import type { CurrentUser } from 'src/common/types/current-user';
import { segmentOfPath } from 'src/common/http/route-dispatch';
import { ChangeLogService } from './change-log.service';

/** Which secret a route answers, in words, from its path parameters (never from what it answers). */
export type SecretOf = (params: Record<string, string>) => string;

const SecretReadMetadata = Reflector.createDecorator<SecretOf>();

/** Whether a route handler records its reads in the change log (`@SecretRead`). */
export function readsSecrets(handler: object): boolean {
  return new Reflector().get(SecretReadMetadata, handler as () => unknown) !== undefined;
}

const MAX_MESSAGE = 1024;

/**
 * The change-log entry of a read of private keys: what was read (by path and in words) and from
 * which address; the entry's user is who read it. Never the key material: only the request's path
 * and parameters are quoted.
 */
export function secretReadMessage(req: Pick<Request, 'originalUrl' | 'ip'>, secret: string): string {
  const path = req.originalUrl.replace(/^\/api\/[^/]+/, '').replace(/\?.*$/, '');
  const message = `GET ${path}: read ${secret}, from ${req.ip ?? 'an unknown address'}`;
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
}

/**
 * Writes the change-log entry of a successful read of private keys (SecretRead), before the
 * answer leaves: a read whose entry cannot be written is not answered (503, as any database failure).
 */
@Injectable()
export class SecretReadLog implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly changeLog: ChangeLogService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const secretOf = this.reflector.get(SecretReadMetadata, context.getHandler());
    const req = context.switchToHttp().getRequest<Request>();
    return next.handle().pipe(
      concatMap(async (result: unknown) => {
        const user = req.user as CurrentUser;
        // eslint-disable-next-line no-restricted-properties -- names the secret by the route's declared path parameters
        const secret = secretOf(req.params as Record<string, string>);
        // No manager: a read's entry, written on the data source's own and sent to the audit sink at once.
        await this.changeLog.record(
          undefined,
          user,
          secretReadMessage(req, secret),
          segmentOfPath(req.path) ?? 'other',
        );
        return result;
      }),
    );
  }
}

/**
 * A route that answers private keys (SSL private keys, URL and URI signing keys, DNSSEC private keys):
 * every successful read is recorded in the change log — who, which key, from which address
 * (docs/decisions.md#d117, docs/security.md).
 */
export function SecretRead(secretOf: SecretOf): MethodDecorator {
  return applyDecorators(SecretReadMetadata(secretOf), UseInterceptors(SecretReadLog));
}
