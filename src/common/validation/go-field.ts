import { parseLegacyTime, parseRfc3339 } from 'src/common/validation/go-formats';
import {
  type Class,
  type ColumnRead,
  decodeNested,
  GoDecodeError,
  type GoDecoder,
  type GoFieldAt,
  type GoFieldOptions,
  goField,
  goJsonKind,
  goStructSchema,
} from 'src/common/validation/go-struct';
import { intProblem } from 'src/common/validation/integers';
import type { JsonSchema } from 'src/common/validation/json-schema';

/**
 * The field decorators of @GoStruct bodies (go-struct.ts, docs/decisions.md#d218): each declares the
 * field's Go type, that is how it decodes, with Go's texts, and its schema in the OpenAPI documents.
 */

/** What a column field reads into: a JSON string (of at most `maxLength`) or a 32-bit int. */
export type GoColumnKind = 'string' | 'int';

export interface GoColumnOptions extends GoFieldOptions {
  /** The longest string the column holds. */
  maxLength?: number;
  /** The field's name in its problems (the property's name unless told). */
  name?: string;
  /** The problem of a null (or, for a string, empty) value; without it null clears the column. */
  empty?: string;
  /** What null decodes as instead (e.g. 0 for an int the original reads without a pointer). */
  nullAs?: number;
  /** A further problem of a decoded, non-empty value, as its full text. */
  rule?: (value: string | number) => string | undefined;
}

function mismatch(value: unknown, at: GoFieldAt, goType: string): GoDecodeError {
  return new GoDecodeError(
    `json: cannot unmarshal ${goJsonKind(value)} into Go struct field ${at.struct}.${at.path} of type ${goType}`,
  );
}

/** The digits of util.JSONIntStr: a JSON number or a string holding a base-10 integer. */
function intStrText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** Go's text for a value that does not decode into the column's type (a number into an int shows itself). */
function columnMismatch(value: unknown, kind: GoColumnKind): string {
  const json = goJsonKind(value);
  const shown = json === 'number' && kind === 'int' ? `number ${String(value)}` : json;
  return `json: cannot unmarshal ${shown} into Go value of type ${kind}`;
}

function readColumn(kind: GoColumnKind, options: GoColumnOptions, property: string) {
  const name = options.name ?? property;
  return (value: unknown): ColumnRead => {
    if (value === null) {
      if (options.nullAs !== undefined) {
        return { value: options.nullAs };
      }
      return options.empty === undefined ? { value: null } : { problem: options.empty };
    }
    let problem: string | undefined;
    if (kind === 'string') {
      if (typeof value !== 'string') {
        problem = columnMismatch(value, kind);
      } else if (options.maxLength !== undefined && value.length > options.maxLength) {
        problem = `the length must be no more than ${options.maxLength}`;
      }
    } else {
      problem =
        typeof value !== 'number' || !Number.isInteger(value)
          ? columnMismatch(value, kind)
          : intProblem(value);
    }
    if (problem !== undefined) {
      return { problem: `${name}: ${problem}` };
    }
    if (value === '' && options.empty !== undefined) {
      return { problem: options.empty };
    }
    const ruled = options.rule?.(value as string | number);
    return ruled === undefined ? { value } : { problem: ruled };
  };
}

/** The per-property decorators: each declares the field's Go type (what it decodes as, with Go's texts). */
export const GoField = {
  /** A Go `string` (or `*string`). */
  string: (options?: GoFieldOptions): PropertyDecorator =>
    goField(
      (value, at) => {
        if (typeof value !== 'string') {
          throw mismatch(value, at, 'string');
        }
        return value;
      },
      () => ({ type: 'string' }),
      options,
    ),

  /** An unsigned integer of Go type `goType`, at most `max` (and never beyond JSON's exact integers). */
  uint: (goType: string, max = Number.MAX_SAFE_INTEGER, options?: GoFieldOptions): PropertyDecorator =>
    goField(
      (value, at) => {
        if (typeof value !== 'number') {
          throw mismatch(value, at, goType);
        }
        if (!Number.isInteger(value) || value < 0 || value > Math.min(max, Number.MAX_SAFE_INTEGER)) {
          throw new GoDecodeError(
            `json: cannot unmarshal number ${value} into Go struct field ${at.struct}.${at.path} of type ${goType}`,
          );
        }
        return value;
      },
      () => ({ type: 'integer' }),
      options,
    ),

  /**
   * util.JSONIntStr: a number or a string of a base-10 integer (`not an integer` otherwise), within
   * `min`..`max` and of at most `maxDigits` digits when given.
   */
  intStr: (
    limits: { min?: number; max?: number; maxDigits?: number } = {},
    options?: GoFieldOptions,
  ): PropertyDecorator =>
    goField(
      (value) => {
        const text = intStrText(value);
        const digits = limits.maxDigits === undefined ? '+' : `{1,${limits.maxDigits}}`;
        const number = new RegExp(`^[+-]?\\d${digits}$`).test(text) ? Number(text) : NaN;
        const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = limits;
        if (!Number.isSafeInteger(number) || number < min || number > max) {
          throw new GoDecodeError('not an integer');
        }
        return number;
      },
      () => ({ type: 'integer' }),
      options,
    ),

  /**
   * A Go `time.Time`: a JSON string in RFC 3339, as a Date. `wording` is the Go release's text for
   * a string that is not one: 'layout' (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot
   * parse`) or 'rfc3339' (`parsing time "x" as RFC 3339: invalid time`).
   */
  rfc3339: (wording: 'layout' | 'rfc3339' = 'layout', options?: GoFieldOptions): PropertyDecorator =>
    goField(
      (value) => {
        if (typeof value !== 'string') {
          throw new GoDecodeError('Time.UnmarshalJSON: input is not a JSON string');
        }
        const date = parseRfc3339(value);
        if (!date) {
          throw new GoDecodeError(
            wording === 'layout'
              ? `parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse`
              : `parsing time ${JSON.stringify(value)} as RFC 3339: invalid time`,
          );
        }
        return date;
      },
      () => ({ type: 'string', description: 'RFC 3339' }),
      options,
    ),

  /** A lib/go-tc `Time` (3.x), as a Date: see parseLegacyTime. */
  legacyTime: (options?: GoFieldOptions): PropertyDecorator =>
    goField(
      (value) => {
        const date = parseLegacyTime(value);
        if (!date) {
          throw new GoDecodeError(`parsing time ${JSON.stringify(JSON.stringify(value))}: not a valid time`);
        }
        return date;
      },
      () => ({}),
      options,
    ),

  /** A Go `bool` (or `*bool`). */
  bool: (options?: GoFieldOptions): PropertyDecorator =>
    goField(
      (value, at) => {
        if (typeof value !== 'boolean') {
          throw mismatch(value, at, 'bool');
        }
        return value;
      },
      () => ({ type: 'boolean' }),
      options,
    ),

  /**
   * A Go `[]string`: a JSON array of strings (a null element is Go's zero string, ''); an element of
   * another JSON type names the field with the element's type, `string`.
   */
  strings: (options?: GoFieldOptions): PropertyDecorator =>
    goField(
      (value, at) => {
        if (!Array.isArray(value)) {
          throw mismatch(value, at, '[]string');
        }
        return (value as unknown[]).map((element) => {
          if (element !== null && typeof element !== 'string') {
            throw mismatch(element, at, 'string');
          }
          return element ?? '';
        });
      },
      () => ({ type: 'array', items: { type: 'string' } }),
      options,
    ),

  /** Any JSON value, kept as sent (an `interface{}`, read by the service). */
  any: (options?: GoFieldOptions): PropertyDecorator =>
    goField(
      (value) => value,
      () => ({}),
      options,
    ),

  /**
   * A nested struct (`type` is a @GoStruct class); Go names it `goType` when the value is no object.
   * Its fields' texts name the outermost struct (`Outer.nested.field`, older Go releases) or, with
   * `namedAfter: 'nested'`, the nested one (`Nested.nested.field`, newer ones).
   */
  struct: (
    type: () => Class,
    goType: string,
    options: GoFieldOptions & { namedAfter?: 'outer' | 'nested' } = {},
  ): PropertyDecorator =>
    goField(
      (value, at) => {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          throw mismatch(value, at, goType);
        }
        return decodeNested(type(), value as Record<string, unknown>, at, options.namedAfter);
      },
      () => goStructSchema(type()),
      options,
    ),

  /**
   * A field the original reads after decoding into its stored row's column (see above): absent keeps
   * the column, null clears it (unless `empty` or `nullAs`); its problems are collected.
   */
  column: (kind: GoColumnKind, options: GoColumnOptions = {}): PropertyDecorator =>
    goField(
      (value) => value,
      () => ({
        type: kind === 'int' ? 'integer' : 'string',
        ...(options.empty === undefined && options.nullAs === undefined ? { nullable: true } : {}),
      }),
      options,
      (property) => readColumn(kind, options, property),
    ),

  /** A type of the original's own with its own decoding (its texts thrown as GoDecodeError). */
  decoded: (decode: GoDecoder, schema: JsonSchema, options?: GoFieldOptions): PropertyDecorator =>
    goField(decode, () => schema, options),
};
