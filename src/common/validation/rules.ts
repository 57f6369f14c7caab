import { applyDecorators } from '@nestjs/common';
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
  ValidateBy,
  ValidateIf,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { fitsColumn, INT32, type IntColumn, intProblem } from 'src/common/validation/integers';

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

/** The constraint name of the column-range check (integers.spec.ts looks for it on every integer field). */
export const INT_COLUMN = 'intColumn';

const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/** The message of an out-of-range value; for a list, of its first such element (`'ids[2]' …`). */
function rangeMessage(args: ValidationArguments, column: IntColumn, each: boolean): string {
  if (!each || !Array.isArray(args.value)) {
    return intProblem(args.value, column) ?? '';
  }
  const values = args.value as unknown[];
  const index = values.findIndex((v) => isInteger(v) && !fitsColumn(v, column));
  return `'${args.property}[${index}]' ${intProblem(values[index], column)}`;
}

/**
 * An integer stored in (or compared with) a column of `column`'s range, INT32 unless told: IsInt
 * (`must be an integer`, or the given message) plus the column's bounds (`must be no less than
 * <min>`, `must be no greater than <max>`), so that no integer reaches the database out of range,
 * and none beyond 2^53 (which JSON.parse has already rounded) at all. Every integer field of a
 * request body is declared with it, directly or through RequiredInt / OptionalInt; integers.spec.ts
 * checks every body class for it. `each`: a list of such integers.
 */
export function ColumnInt(
  column: IntColumn = INT32,
  options: { message?: string; each?: boolean } = {},
): PropertyDecorator {
  const each = options.each ?? false;
  return applyDecorators(
    IsInt({ message: options.message ?? 'must be an integer', each }),
    ValidateBy(
      {
        name: INT_COLUMN,
        constraints: [column.min, column.max],
        validator: {
          // Non-integers are IsInt's to report.
          validate: (value: unknown) => !isInteger(value) || fitsColumn(value, column),
          defaultMessage: (args?: ValidationArguments) => (args ? rangeMessage(args, column, each) : ''),
        },
      },
      { each },
    ),
  );
}

export interface IntRange {
  min?: number;
  max?: number;
  /** The range of the column the value is stored in (default INT32); `min`/`max` narrow it. */
  column?: IntColumn;
}

function intRules({ min, max, column = INT32 }: IntRange): PropertyDecorator[] {
  const rules = [ColumnInt(column)];
  if (min !== undefined && min > column.min) {
    rules.push(Min(min, msg(`must be no less than ${min}`)));
  }
  if (max !== undefined && max < column.max) {
    rules.push(Max(max, msg(`must be no greater than ${max}`)));
  }
  return rules;
}

/** An integer that must be present (`is required`), within its column's range. */
export function RequiredInt(range: IntRange = {}): PropertyDecorator {
  return applyDecorators(IsDefined(msg('is required')), ...intRules(range));
}

/** An integer that may be absent (null is accepted too when `nullable`), within its column's range. */
export function OptionalInt(range: IntRange = {}, nullable = true): PropertyDecorator {
  return applyDecorators(
    nullable ? IsOptional() : ValidateIf((_o, v) => v !== undefined),
    ...intRules(range),
  );
}

/**
 * Any JSON value but null (`is required`) whose JSON text is at most `maxBytes` bytes of UTF-8 (`the
 * length must be no more than <maxBytes>`): a document kept as sent in a text column.
 */
export function RequiredJson(maxBytes: number): PropertyDecorator {
  return applyDecorators(
    IsDefined(msg('is required')),
    ValidateBy(
      {
        name: 'jsonBytes',
        validator: {
          validate: (value: unknown) =>
            value === undefined || Buffer.byteLength(JSON.stringify(value), 'utf8') <= maxBytes,
          defaultMessage: () => `the length must be no more than ${maxBytes}`,
        },
      },
      {},
    ),
  );
}

/** A string that may be absent (not null: the original's decoding refuses a null string field). */
export function AbsentOrString(): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_o, v) => v !== undefined),
    IsString(msg('must be a string')),
  );
}

export function Pattern(pattern: RegExp, message: string): PropertyDecorator {
  return Matches(pattern, msg(message));
}
