import { BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { KeyIdPipe } from 'src/common/validation/id.pipe';

const keyId = new KeyIdPipe();

/** The generic-CRUD key from the query string: absent → `missing key: id`, else as KeyIdPipe. */
export function parseQueryKeyId(value: unknown): number {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (first === undefined) {
    throw new BadRequestException('missing key: id');
  }
  return keyId.transform(typeof first === 'string' ? first : '');
}

/**
 * `@QueryKeyId()`: the `id` query parameter of the query form (`PUT /asns?id=7`), read raw from
 * the request as text (no pipe's primitive conversion can turn `?id=` into 0): absent → 400 `missing key: id`, not an integer → 400 `failed to parse key: id`
 * (docs/original-behaviour.md#generic-handlers).
 */
export const QueryKeyId = createParamDecorator((_data: unknown, ctx: ExecutionContext): number =>
  parseQueryKeyId(ctx.switchToHttp().getRequest<Request>().query.id),
);
