import 'reflect-metadata';
import { BadRequestException, type Type } from '@nestjs/common';
import { decodeGoStruct, isGoStruct } from 'src/common/validation/go-struct';
import { intProblem } from 'src/common/validation/integers';
import { validateBody } from 'src/common/validation/versioned-body';

/**
 * Bodies that are collections of a declared class (docs/decisions.md#d229): a bare JSON array of items
 * (`@ValidBody(ArrayOf(Item, options))`) or a JSON object keyed by free names, each value one item
 * (`@ValidBody(MapOf(Value, options))`). Each item is read by the same engine as a whole body: a
 * @GoStruct class is decoded with its texts, its fields' paths starting at the item's (`[0].name`, or
 * the map key); a class-validator class is validated by the one pipe, with its usual texts (they name
 * the item's fields, not its index). `Number` as the item declares
 * integer ids stored in the 32-bit columns. The reading, stopping at the first problem:
 *
 *  1. no body (with `noBody`) → that text; a null body → the empty collection with `nullAsEmpty`, else
 *     `invalid`; a body of another JSON kind → `invalid` (an array's `wrappedIn` object holding the array
 *     under its key is read as that array, a missing or null array as empty);
 *  2. `Number` items: any item that is no integer → `invalid`;
 *  3. more than `maxItems` → `the payload must have at most <n> items`;
 *  4. each item in order (a map's in its keys' order): `Number` ids beyond the column
 *     `'[i]' <problem>`, a class's item its own texts;
 *  5. the whole body's `check` (the original's own validation, its full 400 text).
 *
 * The handler gets the array of items (a map: an object of the same keys) or, with `verbatim`, the
 * body as sent once it is read without a problem. The OpenAPI documents show an array of the item's
 * schema, or an object whose additionalProperties are the value's schema.
 */
export interface CollectionOptions<T = unknown> {
  /** The 400 text of a body of the wrong JSON kind (and of a `Number` item that is no integer). */
  invalid: string;
  /** The 400 text of a request without any body (otherwise it reads as the JSON parser's `{}`). */
  noBody?: string;
  /** A null body reads as the empty collection, as Go decodes null into a slice or a map. */
  nullAsEmpty?: boolean;
  /** The most items one request may hold. */
  maxItems?: number;
  /**
   * Arrays: an object with the array under `key` is read as the array too (a legacy form); `notAnArray`
   * answers when its `key` holds something else.
   */
  wrappedIn?: { key: string; notAnArray: string };
  /** After every item is read: the whole body's problem as its full 400 text, or undefined. */
  check?: (body: T) => string | undefined;
  /** The handler gets the body as sent (read and checked, not rebuilt from the items). */
  verbatim?: boolean;
  /** The body's description in the OpenAPI documents. */
  description?: string;
}

/** What a collection body's items are: a body class, or `Number` (integer ids of the 32-bit columns). */
export type CollectionItem = Type<object> | NumberConstructor;

export interface CollectionDefinition {
  kind: 'array' | 'map';
  item: CollectionItem;
  options: CollectionOptions;
}

const COLLECTION = 'cdn:body-collection';

function declare(definition: CollectionDefinition): Type<object> {
  const name = `${definition.kind === 'array' ? 'ArrayOf' : 'MapOf'}(${definition.item.name})`;
  const type = { [name]: class {} }[name];
  Reflect.defineMetadata(COLLECTION, definition, type);
  return type;
}

/** The body class of a JSON array of `item`s (see CollectionOptions for how it is read). */
export function ArrayOf<T>(item: CollectionItem, options: CollectionOptions<T[]>): Type<object> {
  return declare({ kind: 'array', item, options: options as CollectionOptions });
}

/** The body class of a JSON object keyed by free names, each value one `item`. */
export function MapOf<T>(item: Type<object>, options: CollectionOptions<Record<string, T>>): Type<object> {
  return declare({ kind: 'map', item, options: options as CollectionOptions });
}

/** The collection a body class declares, if it is one (ArrayOf, MapOf). */
export function collectionOf(type: object): CollectionDefinition | undefined {
  return Reflect.getMetadata(COLLECTION, type) as CollectionDefinition | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Step 1: the entries to read ([path, value]), or the body's problem. */
function entriesOf(
  raw: unknown,
  { kind, options }: CollectionDefinition,
  present: boolean,
): [string, unknown][] {
  if (!present && options.noBody !== undefined) {
    throw new BadRequestException(options.noBody);
  }
  if (raw === null && options.nullAsEmpty) {
    return [];
  }
  if (kind === 'map') {
    if (!isRecord(raw)) {
      throw new BadRequestException(options.invalid);
    }
    return Object.entries(raw);
  }
  let items = raw;
  if (options.wrappedIn && isRecord(raw)) {
    items = raw[options.wrappedIn.key] ?? [];
    if (!Array.isArray(items)) {
      throw new BadRequestException(options.wrappedIn.notAnArray);
    }
  }
  if (!Array.isArray(items)) {
    throw new BadRequestException(options.invalid);
  }
  return (items as unknown[]).map((item, i): [string, unknown] => [`[${i}]`, item]);
}

async function readItem(item: CollectionItem, value: unknown, path: string): Promise<unknown> {
  if (item === Number) {
    const problem = intProblem(value);
    if (problem !== undefined) {
      throw new BadRequestException(`'${path}' ${problem}`);
    }
    return value;
  }
  const type = item as Type<object>;
  return isGoStruct(type) ? decodeGoStruct(value, type, undefined, path) : validateBody(value, type);
}

/** Reads a collection body as its declaration says (see CollectionOptions); Nest's 400 on a problem. */
export async function readCollection(
  raw: unknown,
  definition: CollectionDefinition,
  context: { present: boolean },
): Promise<unknown> {
  const { kind, item, options } = definition;
  const entries = entriesOf(raw, definition, context.present);
  if (item === Number && entries.some(([, value]) => !Number.isInteger(value))) {
    throw new BadRequestException(options.invalid);
  }
  if (options.maxItems !== undefined && entries.length > options.maxItems) {
    throw new BadRequestException(`the payload must have at most ${options.maxItems} items`);
  }
  const read: [string, unknown][] = [];
  for (const [path, value] of entries) {
    read.push([path, await readItem(item, value, path)]);
  }
  const body = kind === 'array' ? read.map(([, value]) => value) : Object.fromEntries(read);
  const problem = options.check?.(body);
  if (problem !== undefined) {
    throw new BadRequestException(problem);
  }
  return options.verbatim ? raw : body;
}
