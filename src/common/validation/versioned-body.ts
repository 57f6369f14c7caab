import type { Type } from '@nestjs/common';
import { ApiValidationPipe } from 'src/common/validation/api-validation.pipe';

const pipe = new ApiValidationPipe();

/**
 * Validates a body against the DTO of the requested version with the global pipe's own class, so
 * that it answers exactly as every other body; for routes whose body differs by version (roles, users).
 */
export async function validateBody<T extends object>(body: unknown, metatype: Type<T>): Promise<T> {
  return (await pipe.transform(body, { type: 'body', metatype })) as T;
}
