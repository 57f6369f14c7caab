import { type ArgumentMetadata, BadRequestException, Injectable, ValidationPipe } from '@nestjs/common';
import { BODY_NOT_AN_OBJECT, VALIDATION_OPTIONS } from 'src/common/validation/validation.options';

/**
 * Nest's ValidationPipe with the project's options (docs/decisions.md#d7), plus one rule it lacks: a
 * body validated against a DTO class must be a JSON object (an array or a bare value is a 400, not a
 * list of missing fields). It is not installed globally: `@ValidBody` runs it (through
 * `validateBody`) for every class-validator body (not for @GoStruct classes, nor a hand `parse`).
 */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super(VALIDATION_OPTIONS);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDtoBody =
      metadata.type === 'body' && metadata.metatype !== undefined && this.toValidate(metadata);
    const isObject =
      value === undefined || value === null || (typeof value === 'object' && !Array.isArray(value));
    if (isDtoBody && !isObject) {
      throw new BadRequestException(BODY_NOT_AN_OBJECT);
    }
    return super.transform(value, metadata);
  }
}
