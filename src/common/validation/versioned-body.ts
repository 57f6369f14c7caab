import type { Type } from '@nestjs/common';
import { ApiValidationPipe } from 'src/common/validation/api-validation.pipe';
import { readBodyKeys } from 'src/common/validation/body-keys';
import { decodeGoStruct, isGoStruct } from 'src/common/validation/go-struct';

const pipe = new ApiValidationPipe();

/**
 * Validates a body against a DTO class with the one validation pipe `@ValidBody` uses, so that every
 * body answers with the same rules and texts; a @GoStruct class is decoded as the original's Go
 * struct (src/common/validation/go-struct.ts), then checked by its class-validator rules if it has any;
 * a class with @BodyKeys reads the body's keys so first (src/common/validation/body-keys.ts).
 */
export async function validateBody<T extends object>(body: unknown, metatype: Type<T>): Promise<T> {
  if (isGoStruct(metatype)) {
    return decodeGoStruct(body, metatype as Type<T> & (new () => T));
  }
  const read = readBodyKeys(body, metatype);
  return (await pipe.transform(read.raw, { type: 'body', metatype: read.type })) as T;
}
