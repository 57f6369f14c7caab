import type { Type } from '@nestjs/common';
import { ApiValidationPipe } from 'src/common/validation/api-validation.pipe';
import { decodeGoStruct, isGoStruct } from 'src/common/validation/go-struct';

const pipe = new ApiValidationPipe();

/**
 * Validates a body against a DTO class with the one validation pipe `@ValidBody` uses, so that every
 * body answers with the same rules and texts; a @GoStruct class is decoded as the original's Go
 * struct (src/common/validation/go-struct.ts), then checked by its class-validator rules if it has any.
 */
export async function validateBody<T extends object>(body: unknown, metatype: Type<T>): Promise<T> {
  if (isGoStruct(metatype)) {
    return decodeGoStruct(body, metatype as Type<T> & (new () => T));
  }
  return (await pipe.transform(body, { type: 'body', metatype })) as T;
}
