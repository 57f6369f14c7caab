import { BadRequestException, NotFoundException } from '@nestjs/common';
import { fitsColumn, INT32, type IntColumn, intProblem, parseIntText } from 'src/common/validation/integers';
import { paramText, PARAM_TEXTS, type WordingName } from 'src/common/request-input/param-texts';

/**
 * The rules of path and query parameters: each reads one parameter's text (the first value of a
 * repeated query key, undefined when absent) and answers its value, or refuses it with the texts of
 * its wording family (param-texts.ts). The rule also says what the OpenAPI documents show of it.
 */
export interface ParamRule<T = unknown> {
  /** The parameter's JSON type in the OpenAPI documents. */
  type: 'integer' | 'string' | 'boolean';
  /** Whether a request must carry it. */
  required: boolean;
  /** The values it takes, when they are few. */
  values?: readonly string[];
  /** Not read in the version it is declared for (NotRead): the OpenAPI documents leave it out. */
  unread?: true;
  read(text: string | undefined, name: string): T;
}

export interface IntOptions {
  /** Absent → `missing` (default); false: absent → `default` (undefined unless given). */
  required?: boolean;
  default?: number;
  /** An empty value counts as absent (the original checks `== ""`). */
  emptyIsMissing?: boolean;
  /** The range the value must fit (default INT32, the ids' columns); null: any 64-bit integer. */
  column?: IntColumn | null;
  /** Go's strconv.Atoi syntax (a leading `+` too); an integer beyond 64 bits is `beyond`. */
  atoi?: boolean;
  /** The name the texts give it when it is not the key's (`serverId` is `serverid` in them). */
  as?: string;
  /** At most this many digits (the original's pattern, leading zeros counted); more: `notInt`. */
  digits?: number;
}

const DECIMAL = /^-?\d+$/;
const ATOI = /^[+-]?\d+$/;
const INT64_MAX = 2n ** 63n - 1n;
const NON_NEGATIVE: IntColumn = { min: 0, max: INT32.max };

function missing(wording: WordingName, name: string): never {
  throw new BadRequestException(paramText(wording, 'missing', name));
}

/** An integer parameter worded by `wording`. */
export function intRule(
  wording: WordingName,
  options: IntOptions & { required: false },
): ParamRule<number | undefined>;
export function intRule(wording: WordingName, options?: IntOptions): ParamRule<number>;
export function intRule(wording: WordingName, options: IntOptions = {}): ParamRule<number | undefined> {
  const { required = true, emptyIsMissing = false, atoi = false } = options;
  const column = options.column === undefined ? INT32 : options.column;
  const texts = PARAM_TEXTS[wording] as (typeof PARAM_TEXTS)[WordingName] & {
    beyond?: unknown;
    notFound?: unknown;
  };
  return {
    type: 'integer',
    required,
    read(text, key) {
      const name = options.as ?? key;
      if (text === undefined || (emptyIsMissing && text === '')) {
        return required ? missing(wording, name) : options.default;
      }
      const digits = options.digits === undefined ? 0 : text.replace(/^[+-]/, '').length;
      if (!(atoi ? ATOI : DECIMAL).test(text) || digits > (options.digits ?? 0)) {
        throw new BadRequestException(paramText(wording, 'notInt', name, text));
      }
      if (atoi) {
        const big = BigInt(text);
        if (big > INT64_MAX || big < -INT64_MAX - 1n) {
          throw new BadRequestException(
            paramText(wording, texts.beyond ? 'beyond' : 'notInt', name, text, 'out of range'),
          );
        }
      }
      const value = Number(text);
      // With a notFound text, only an id as the ids are written (no `+`) names a row.
      if ((column && !fitsColumn(value, column)) || (texts.notFound && text.startsWith('+'))) {
        if (texts.notFound) {
          throw new NotFoundException(paramText(wording, 'notFound', name, text));
        }
        if (texts.beyond && !atoi && column) {
          throw new BadRequestException(paramText(wording, 'beyond', name, text, intProblem(value, column)!));
        }
        throw new BadRequestException(paramText(wording, 'notInt', name, text));
      }
      return value;
    },
  };
}

/** A key of the original's generic CRUD handlers: `missing key: id`, `failed to parse key: id` (no negatives). */
export function IntKey(options: IntOptions = {}): ParamRule<number> {
  return intRule('generic', { column: NON_NEGATIVE, ...options });
}

/** A parameter of a hand-written handler: `required parameters missing: …`, `getting integer parameters: …`. */
export function IntParam(options: IntOptions = {}): ParamRule<number> {
  return intRule('handWritten', options);
}

/** An optional integer parameter of a hand-written handler (absent → `default`). */
export function OptionalIntParam(options: Omit<IntOptions, 'required'> = {}): ParamRule<number | undefined> {
  return intRule('handWritten', { ...options, required: false });
}

export interface TextOptions {
  /** The family whose `missing` text refuses an absent one; none: the parameter is optional. */
  requiredBy?: WordingName;
  /** An empty value counts as absent. */
  emptyIsMissing?: boolean;
  /** The values it takes, refused with `oneOf[0]`'s `notOneOf` text. */
  oneOf?: { wording: WordingName; values: readonly string[] };
  /** What an absent optional one reads as (default undefined). */
  default?: string;
  /**
   * What the OpenAPI documents show of a text its handler's named function checks (when the
   * original checks it with other keys, in an order of its own): its type and values.
   */
  documents?: { type: ParamRule['type']; values?: readonly string[] };
}

/** A text parameter; required when `requiredBy` names the wording of its absence. */
export function TextParam(options: TextOptions & { requiredBy: WordingName }): ParamRule<string>;
export function TextParam(options: TextOptions & { default: string }): ParamRule<string>;
export function TextParam(options?: TextOptions): ParamRule<string | undefined>;
export function TextParam(options: TextOptions = {}): ParamRule<string | undefined> {
  const { requiredBy, emptyIsMissing = false, oneOf } = options;
  return {
    type: options.documents?.type ?? 'string',
    required: requiredBy !== undefined,
    values: oneOf?.values ?? options.documents?.values,
    read(text, name) {
      if (text === undefined || (emptyIsMissing && text === '')) {
        return requiredBy ? missing(requiredBy, name) : options.default;
      }
      if (oneOf && !oneOf.values.includes(text)) {
        throw new BadRequestException(paramText(oneOf.wording, 'notOneOf', name, text, oneOf.values));
      }
      return text;
    },
  };
}

/** A path segment as routed (Express has decoded it). */
export function PathText(): ParamRule<string> {
  return { type: 'string', required: true, read: (text) => text ?? '' };
}

/** Go's strconv.ParseBool. */
export function goBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) {
    return true;
  }
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) {
    return false;
  }
  return undefined;
}

/**
 * A boolean parameter as Go's strconv.ParseBool reads it, refused with `wording`'s `notBool`; an
 * absent one reads as `absent` (undefined: as the empty text, which ParseBool refuses).
 */
export function BoolParam(wording: WordingName, absent?: boolean): ParamRule<boolean> {
  return {
    type: 'boolean',
    required: false,
    read(text, name) {
      if (text === undefined && absent !== undefined) {
        return absent;
      }
      const value = goBool(text ?? '');
      if (value === undefined) {
        throw new BadRequestException(paramText(wording, 'notBool', name, text ?? ''));
      }
      return value;
    },
  };
}

/**
 * Optional text parameters by name, for a handler that hands the record to a parser of its own
 * (`@ValidQuery(TextParams('updated', 'reval_updated'))`): declared, each read by its first value.
 */
export function TextParams<K extends string>(...names: K[]): Record<K, ParamRule<string | undefined>> {
  return Object.fromEntries(names.map((name) => [name, TextParam()])) as Record<
    K,
    ParamRule<string | undefined>
  >;
}

/**
 * A key the handler does not read in the versions it is declared for, where it reads it in others
 * (`{ '3.0': IntKey(), '4.0': NotRead() }`): its value is undefined whatever the request sends, and
 * the OpenAPI documents of those versions leave it out.
 */
export function NotRead(): ParamRule<undefined> {
  return { type: 'string', required: false, unread: true, read: () => undefined };
}

/**
 * Comma-separated integers (`deliveryserviceids=1,2`): empty parts skipped, each part an integer
 * `column` can hold, else `wording`'s `notInt` with the whole text; absent: none.
 */
export function IntListParam(wording: WordingName, column: IntColumn = INT32): ParamRule<number[]> {
  return {
    type: 'string',
    required: false,
    read(text, name) {
      const ids: number[] = [];
      for (const part of (text ?? '').split(',').map((p) => p.trim())) {
        if (part === '') {
          continue;
        }
        const id = parseIntText(part, column);
        if (id === undefined) {
          throw new BadRequestException(paramText(wording, 'notInt', name, text ?? ''));
        }
        ids.push(id);
      }
      return ids;
    },
  };
}
