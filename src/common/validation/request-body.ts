import { BadRequestException, type Type } from '@nestjs/common';
import type { Request } from 'express';
import { validateBody } from 'src/common/validation/versioned-body';

/**
 * Whether the request carried a body at all. The JSON parser turns "no body" into `{}`; the
 * original answers an empty body differently from an empty object, so the routes that care ask here.
 */
export function hasRequestBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? '0') > 0;
}

export interface ObjectOrArray<T> {
  items: T[];
  /** The body was a JSON array (even of one element). */
  isArray: boolean;
}

/**
 * A body that is one object or an array of objects, each validated against `dto` with the global
 * pipe's rules, in order; the first invalid object answers 400 as the original's multi-create does.
 */
export async function validateObjectOrArray<T extends object>(
  body: unknown,
  dto: Type<T>,
): Promise<ObjectOrArray<T>> {
  if (!Array.isArray(body)) {
    return { items: [await validateBody(body, dto)], isArray: false };
  }
  const items: T[] = [];
  for (const element of body as unknown[]) {
    if (element === null || typeof element !== 'object' || Array.isArray(element)) {
      throw new BadRequestException('the request body must be a JSON object or an array of objects');
    }
    items.push(await validateBody(element, dto));
  }
  return { items, isArray: true };
}
