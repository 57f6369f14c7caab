/**
 * The integers the database can hold, in one place: every integer that reaches SQL (a body field,
 * a path id, a list filter, `limit`/`offset`) is checked against the range of the column it is
 * stored in or compared with, so that MySQL never sees an out-of-range value (an error) and SQLite
 * never stores an altered one (its INTEGER is 64-bit, and larger numbers become floats).
 *
 * - INT32: the schema's `integer` columns (MySQL INT): -2^31 .. 2^31-1. A value means the same on
 *   both databases, so SQLite's wider INTEGER is held to MySQL's range.
 * - BIGINT: the `bigint` columns. They hold 64 bits, but request values are JavaScript numbers, so
 *   the range is that of the integers a JSON number carries exactly: ±(2^53-1). Beyond it, two
 *   different numbers in a body read as the same value.
 */
export interface IntColumn {
  min: number;
  max: number;
}

export const INT32: IntColumn = { min: -2147483648, max: 2147483647 };
export const BIGINT: IntColumn = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };

/** Whether `value` is an integer that `column` can hold. */
export function fitsColumn(value: unknown, column: IntColumn = INT32): value is number {
  return Number.isSafeInteger(value) && (value as number) >= column.min && (value as number) <= column.max;
}

/**
 * The problem with an integer field's value, in the validation messages' words (`must be an
 * integer`, `must be no less than N`, `must be no greater than N`), or undefined when it fits.
 */
export function intProblem(value: unknown, column: IntColumn = INT32): string | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return 'must be an integer';
  }
  if (value < column.min) {
    return `must be no less than ${column.min}`;
  }
  if (value > column.max) {
    return `must be no greater than ${column.max}`;
  }
  return undefined;
}

const INTEGER_TEXT = /^-?\d+$/;

/**
 * A decimal integer from a query string or a path (`-` sign allowed, no spaces, no exponent) when
 * `column` can hold it; undefined for anything else, however many digits it has.
 */
export function parseIntText(text: string, column: IntColumn = INT32): number | undefined {
  if (!INTEGER_TEXT.test(text)) {
    return undefined;
  }
  const value = Number(text);
  return fitsColumn(value, column) ? value : undefined;
}

/** Whether `text` is a decimal integer at all (of any size). */
export function isIntText(text: string): boolean {
  return INTEGER_TEXT.test(text);
}
