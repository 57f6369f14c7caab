import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  type ValidationOptions,
} from 'class-validator';

/**
 * Field rules with the original's wording (ozzo-validation: `cannot be blank`, `is required`,
 * `must be no less than N`, …). Each rule checks the JSON type first, so a wrong type gets a type
 * message rather than a range one. The exception factory adds the `'field'` prefix.
 */

const msg = (message: string): ValidationOptions => ({ message });

/** A non-empty string. */
export function RequiredString(maxLength = 255): PropertyDecorator {
  return applyDecorators(
    IsDefined(msg('cannot be blank')),
    IsString(msg('must be a string')),
    IsNotEmpty(msg('cannot be blank')),
    MaxLength(maxLength, msg(`the length must be between 1 and ${maxLength}`)),
  );
}

/** A string that may be absent or null. */
export function OptionalString(maxLength = 255): PropertyDecorator {
  return applyDecorators(
    IsOptional(),
    IsString(msg('must be a string')),
    MaxLength(maxLength, msg(`the length must be no more than ${maxLength}`)),
  );
}

/** A boolean that must be present (`is required`, as NotNil). */
export function RequiredBoolean(): PropertyDecorator {
  return applyDecorators(IsDefined(msg('is required')), IsBoolean(msg('must be a boolean')));
}

export function OptionalBoolean(): PropertyDecorator {
  return applyDecorators(IsOptional(), IsBoolean(msg('must be a boolean')));
}

export interface IntRange {
  min?: number;
  max?: number;
}

function intRules({ min, max }: IntRange): PropertyDecorator[] {
  const rules = [IsInt(msg('must be an integer'))];
  if (min !== undefined) {
    rules.push(Min(min, msg(`must be no less than ${min}`)));
  }
  if (max !== undefined) {
    rules.push(Max(max, msg(`must be no greater than ${max}`)));
  }
  return rules;
}

/** An integer that must be present (`is required`). */
export function RequiredInt(range: IntRange = {}): PropertyDecorator {
  return applyDecorators(IsDefined(msg('is required')), ...intRules(range));
}

/** An integer that may be absent; null is accepted too when `nullable`. */
export function OptionalInt(range: IntRange = {}, nullable = true): PropertyDecorator {
  return applyDecorators(
    nullable ? IsOptional() : ValidateIf((_o, v) => v !== undefined),
    ...intRules(range),
  );
}

export function Pattern(pattern: RegExp, message: string): PropertyDecorator {
  return Matches(pattern, msg(message));
}

/** Query-string booleans as Go's strconv.ParseBool reads them; anything else stays a string. */
export function toBoolean({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') {
    return value;
  }
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) {
    return true;
  }
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) {
    return false;
  }
  return value;
}

/** Query-string integers; anything that is not one stays a string and fails IsInt. */
export function toInt({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
}

export const QueryBoolean = (): PropertyDecorator => Transform(toBoolean);
export const QueryInt = (): PropertyDecorator => Transform(toInt);
