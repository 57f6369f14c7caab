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
import { INT32, type IntColumn, intProblem } from 'src/common/validation/integers';
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

/**
 * The project's words for a field of the wrong JSON type or out of its column's range, naming the
 * field by its path (`'nodes[0].cachegroup' must be a string`), as the class-validator bodies word
 * them (docs/decisions.md#d225): for the bodies read field by field, stopping at the first problem.
 */
function worded(path: string, problem: string): GoDecodeError {
  return new GoDecodeError(`'${path}' ${problem}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSONIntStr's text: a decimal integer, blanks around it allowed. */
const INT_STR = /^\s*-?\d+\s*$/;

export interface GoIntOptions extends GoFieldOptions {
  /** The column the value is stored in or compared with (INT32 unless told). */
  column?: IntColumn;
  /** util.JSONIntStr: a string holding a decimal integer (blanks around it allowed) reads as one. */
  intStr?: boolean;
  /** A value that is no integer fails in Go's words into this Go type, instead of `must be an integer`. */
  goType?: string;
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

  /** A string, or `'<field>' must be a string` (D225). */
  text: (options?: GoFieldOptions): PropertyDecorator =>
    goField(
      (value, at) => {
        if (typeof value !== 'string') {
          throw worded(at.path, 'must be a string');
        }
        return value;
      },
      () => ({ type: 'string' }),
      options,
    ),

  /**
   * An integer within its column's range, or `'<field>' must be an integer` (`must be no less/greater
   * than …`) (D225); see GoIntOptions for JSONIntStr and Go's words for a value of another type.
   */
  int: (options: GoIntOptions = {}): PropertyDecorator =>
    goField(
      (value, at) => {
        const read =
          options.intStr && typeof value === 'string' && INT_STR.test(value) ? Number(value.trim()) : value;
        if (options.goType !== undefined && (typeof read !== 'number' || !Number.isInteger(read))) {
          throw mismatch(value, at, options.goType);
        }
        const problem = intProblem(read, options.column ?? INT32);
        if (problem !== undefined) {
          throw worded(at.path, problem);
        }
        return read;
      },
      () => ({ type: 'integer' }),
      options,
    ),

  /**
   * An array, or `'<field>' must be an array` (D225), of 32-bit integers (`'<field>[i]' must be an
   * integer`, …) or of objects decoded as the @GoStruct class `item` returns (`'<field>[i]' must be
   * an object`; their fields named `<field>[i].<name>`).
   */
  list: (item: 'int' | (() => Class), options?: GoFieldOptions): PropertyDecorator =>
    goField(
      (value, at) => {
        if (!Array.isArray(value)) {
          throw worded(at.path, 'must be an array');
        }
        return (value as unknown[]).map((element, index) => {
          const path = `${at.path}[${index}]`;
          if (item === 'int') {
            const problem = intProblem(element);
            if (problem !== undefined) {
              throw worded(path, problem);
            }
            return element;
          }
          if (!isRecord(element)) {
            throw worded(path, 'must be an object');
          }
          return decodeNested(item(), element, { ...at, path });
        });
      },
      () => ({ type: 'array', items: item === 'int' ? { type: 'integer' } : goStructSchema(item()) }),
      options,
    ),

  /**
   * A field read after the Go decoding, as a column is, by `read` (its value, or its problem's full
   * text): for the bodies whose original lists every field's problem (`<failure><problem>, …`).
   * Absent keeps the property's initial value; null is read too.
   */
  collected: (
    read: (value: unknown) => ColumnRead,
    schema: JsonSchema,
    options?: GoFieldOptions,
  ): PropertyDecorator =>
    goField(
      (value) => value,
      () => schema,
      options,
      () => read,
    ),

  /** A type of the original's own with its own decoding (its texts thrown as GoDecodeError). */
  decoded: (decode: GoDecoder, schema: JsonSchema, options?: GoFieldOptions): PropertyDecorator =>
    goField(decode, () => schema, options),
};
