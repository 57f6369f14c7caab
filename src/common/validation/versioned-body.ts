import type { Type } from '@nestjs/common';
import { ApiValidationPipe } from 'src/common/validation/api-validation.pipe';

const pipe = new ApiValidationPipe();

/**
 * Validates a body against a DTO class with the one validation pipe `@ValidBody` uses, so that every
 * body answers with the same rules and texts.
 */
export async function validateBody<T extends object>(body: unknown, metatype: Type<T>): Promise<T> {
  return (await pipe.transform(body, { type: 'body', metatype })) as T;
}
