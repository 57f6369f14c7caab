import { type ArgumentMetadata, BadRequestException, Injectable, ValidationPipe } from '@nestjs/common';
import { BODY_NOT_AN_OBJECT, VALIDATION_OPTIONS } from 'src/common/validation/validation.options';

/**
 * The global ValidationPipe, plus one rule it lacks: a body validated against a DTO class must be a
 * JSON object (an array or a bare value is a 400, not a list of missing fields). Routes that take an
 * object or an array declare their body without a DTO class and validate it themselves.
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
