import 'reflect-metadata';
import { BadRequestException } from '@nestjs/common';
import { getMetadataStorage, validate } from 'class-validator';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { validationException } from 'src/common/validation/validation.options';

/**
 * Bodies decoded as the original's Go structs decode them (docs/decisions.md#d218). Go's JSON
 * decoder stops at the first field of a wrong JSON type and words it its own way
 * (`json: cannot unmarshal string into Go struct field InvalidationJobV4.id of type uint64`), where
 * class-validator reports every field. A class says so declaratively:
 *
 *     @GoStruct('InvalidationJobV4', { failure: 'Unable to parse input: ', withCause: true })
 *     export class JobV4Body {
 *       @GoField.uint('uint64', undefined, { required: true }) id = 0;
 *       @GoField.string() assetUrl = '';
 *     }
 *
 * `@ValidBody` (through validateBody) decodes such a class field by field, in declaration order (or
 * the body's order, as Go's decoder, with `order: 'document'`), stopping at the first failure; then
 * the struct's `check` (the original's own validation texts) and any class-validator rules on the
 * class. A missing or null field keeps the property's initial value (Go's zero value). The OpenAPI
 * request schema is derived from the same decorators (goStructSchema).
 *
 * The field decorators (GoField) are in go-field.ts. A `GoField.column` is a field the original keeps
 * raw while decoding and reads afterwards into its stored row with texts of its own: every such
 * field's problem is collected, named after the field, and all are answered together
 * (`<failure><problem>, <problem>`) once the Go decoding succeeded.
 */

/** A value Go's decoder refuses; the message is its text (without the struct's failure prefix). */
export class GoDecodeError extends Error {}

/** Where a field is: the outermost struct's Go name and the field's path in it (`certificate.crt`). */
export interface GoFieldAt {
  struct: string;
  path: string;
  /** The column fields met so far (a nested struct adds its own). */
  columns?: ColumnReads;
}

/** Decodes one present, non-null JSON value, or throws a GoDecodeError. */
export type GoDecoder = (value: unknown, at: GoFieldAt) => unknown;

export interface GoFieldOptions {
  /** Documentation only: the original requires the field (checked after decoding, in its words). */
  required?: boolean;
  /** Merged into the field's schema in the OpenAPI documents (a key set to undefined is removed). */
  schema?: JsonSchema;
  /** The field's JSON key (its Go `json:"…"` tag) when it is not the property's name. */
  key?: string;
  /** The decoder reads a null value too (by default null keeps the initial value, as absent does). */
  decodesNull?: boolean;
}

/** What a column field read: its value, or its problem's text. */
export type ColumnRead = { value: unknown } | { problem: string };

interface GoFieldDefinition {
  property: string;
  /** The JSON key it is read from (and named by in texts and the schema). */
  key: string;
  decode: GoDecoder;
  /** Set for a GoField.column: read after the Go decoding, null included. */
  column?: (value: unknown) => ColumnRead;
  decodesNull: boolean;
  schema: () => JsonSchema;
  required: boolean;
}

export interface GoStructOptions<T = object> {
  /** The 400 text of every decoding failure; followed by Go's own text when `withCause`. */
  failure: string;
  withCause?: boolean;
  /** The package of the struct, named when the body is not an object (`tc.` unless told). */
  goPackage?: string;
  /**
   * 'declaration' (default): fields read in the class's order, names matched exactly. 'document':
   * as Go's decoder, the body's fields in its order, names matched case-insensitively (the last
   * occurrence of a name wins).
   */
  order?: 'declaration' | 'document';
  /**
   * A `null` body: 'zero' (default) decodes as Go does, into the zero struct; 'null' or 'object'
   * refuses it as not an object, naming its JSON kind so (the texts the original's routes answer).
   */
  nullBody?: 'zero' | 'null' | 'object';
  /**
   * The original's own validation after decoding, in its words: returns the 400 text, or undefined.
   * It may complete the body (e.g. one of two aliases given alone stands for both).
   */
  check?: (body: T) => string | undefined;
  /** The body's description in the OpenAPI documents. */
  description?: string;
  /** A request without any body fails as Go's decoder does on empty input: `<failure>EOF`. */
  eofWhenNoBody?: boolean;
  /**
   * The text for a body that is not a JSON object (null included, unless `nullBody: 'zero'` is
   * given: then a null body is the zero struct), instead of Go's; a function words it for the item at
   * `path` of a collection body (`[0]`, body-collections.ts), '' for a whole body.
   */
  notAnObject?: string | ((path: string) => string);
}

interface GoStructDefinition {
  name: string;
  options: GoStructOptions;
}

const STRUCT = 'cdn:go-struct';
const FIELDS = 'cdn:go-struct-fields';

export type Class<T = object> = new () => T;

/** The JSON kind of a value as Go's decoder names it in `cannot unmarshal <kind> into …`. */
export function goJsonKind(value: unknown): string {
  if (Array.isArray(value)) {
    return 'array';
  }
  if (value === null) {
    return 'null';
  }
  return typeof value === 'object' ? 'object' : typeof value === 'boolean' ? 'bool' : typeof value;
}

/** The class decorator: the class is the Go struct `name` (without its package). */
export function GoStruct<T extends object>(name: string, options: GoStructOptions<T>): ClassDecorator {
  return (target) => {
    const definition: GoStructDefinition = { name, options: options as unknown as GoStructOptions };
    Reflect.defineMetadata(STRUCT, definition, target);
  };
}

/** Declares one field (used by GoField's decorators, go-field.ts). */
export function goField(
  decode: GoDecoder,
  schema: () => JsonSchema,
  options: GoFieldOptions = {},
  column?: (property: string) => (value: unknown) => ColumnRead,
): PropertyDecorator {
  return (target, property) => {
    const owner = target.constructor;
    const fields = [...((Reflect.getMetadata(FIELDS, owner) as GoFieldDefinition[] | undefined) ?? [])];
    fields.push({
      property: String(property),
      key: options.key ?? String(property),
      decode,
      column: column?.(String(property)),
      decodesNull: options.decodesNull ?? false,
      schema: () => withOverrides(schema(), options.schema),
      required: options.required ?? false,
    });
    Reflect.defineMetadata(FIELDS, fields, owner);
  };
}

function withOverrides(schema: JsonSchema, overrides: JsonSchema | undefined): JsonSchema {
  const merged: Record<string, unknown> = { ...schema, ...overrides };
  for (const key of Object.keys(merged)) {
    if (merged[key] === undefined) {
      delete merged[key];
    }
  }
  return merged;
}

function structOf(type: object): GoStructDefinition | undefined {
  return Reflect.getMetadata(STRUCT, type) as GoStructDefinition | undefined;
}

function fieldsOf(type: object): GoFieldDefinition[] {
  return (Reflect.getMetadata(FIELDS, type) as GoFieldDefinition[] | undefined) ?? [];
}

/** Whether `type` is a @GoStruct class. */
export function isGoStruct(type: object): boolean {
  return structOf(type) !== undefined;
}

/** The fields present in `record` with the definition each decodes with, in reading order. */
function presentFields(
  fields: GoFieldDefinition[],
  record: Record<string, unknown>,
  order: 'declaration' | 'document',
): [GoFieldDefinition, unknown][] {
  if (order === 'declaration') {
    return fields.map((field): [GoFieldDefinition, unknown] => [field, record[field.key]]);
  }
  const found = new Map<GoFieldDefinition, unknown>();
  for (const [key, value] of Object.entries(record)) {
    const field =
      fields.find((f) => f.key === key) ?? fields.find((f) => f.key.toLowerCase() === key.toLowerCase());
    if (field) {
      found.delete(field);
      found.set(field, value);
    }
  }
  return [...found];
}

/** The column fields met while decoding, read once the Go decoding succeeded. */
export type ColumnReads = (() => string | undefined)[];

function decodeFields(
  type: Class,
  record: Record<string, unknown>,
  columns: ColumnReads,
  parent?: GoFieldAt,
): object {
  const definition = structOf(type);
  const struct = parent?.struct ?? definition?.name ?? type.name;
  const body = new type() as Record<string, unknown>;
  for (const [field, value] of presentFields(
    fieldsOf(type),
    record,
    definition?.options.order ?? 'declaration',
  )) {
    const { column } = field;
    if (column) {
      if (value !== undefined) {
        columns.push(() => {
          const read = column(value);
          if ('problem' in read) {
            return read.problem;
          }
          body[field.property] = read.value;
          return undefined;
        });
      }
      continue;
    }
    if (value === undefined || (value === null && !field.decodesNull)) {
      continue;
    }
    const path = parent ? `${parent.path}.${field.key}` : field.key;
    body[field.property] = field.decode(value, { struct, path, columns });
  }
  return body;
}

/**
 * Decodes `raw` into the @GoStruct class `type`: Go's texts for the first field that fails (as the
 * struct's `failure` says), then its `check`, then its class-validator rules (if any). An item of a
 * collection body is at `path` (`[0]`): its fields are named `[0].<name>`.
 */
export async function decodeGoStruct<T extends object>(
  raw: unknown,
  type: Class<T>,
  context?: { present: boolean },
  path?: string,
): Promise<T> {
  const definition = structOf(type);
  if (!definition) {
    throw new Error(`${type.name} is not a @GoStruct class`);
  }
  const { name, options } = definition;
  const isObject = typeof raw === 'object' && raw !== null && !Array.isArray(raw);
  const { notAnObject } = options;
  if (
    notAnObject !== undefined &&
    !isObject &&
    !(raw === null && options.nullBody === 'zero') &&
    !(options.eofWhenNoBody && context?.present === false)
  ) {
    throw new BadRequestException(typeof notAnObject === 'string' ? notAnObject : notAnObject(path ?? ''));
  }
  let body: T;
  const columns: ColumnReads = [];
  try {
    let record: Record<string, unknown>;
    if (options.eofWhenNoBody && context?.present === false) {
      throw new GoDecodeError('EOF');
    }
    if (raw === null && (options.nullBody ?? 'zero') === 'zero') {
      record = {};
    } else if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      const kind = raw === null ? options.nullBody : goJsonKind(raw);
      throw new GoDecodeError(
        `json: cannot unmarshal ${kind} into Go value of type ${options.goPackage ?? 'tc'}.${name}`,
      );
    } else {
      record = raw as Record<string, unknown>;
    }
    const at = path === undefined || path === '' ? undefined : { struct: name, path };
    body = decodeFields(type, record, columns, at) as T;
  } catch (error) {
    if (error instanceof GoDecodeError) {
      throw new BadRequestException(
        options.withCause ? `${options.failure}${error.message}` : options.failure,
      );
    }
    throw error;
  }
  const problems = columns.map((read) => read()).filter((problem) => problem !== undefined);
  if (problems.length > 0) {
    throw new BadRequestException(options.failure + problems.join(', '));
  }
  const problem = (options.check as ((body: T) => string | undefined) | undefined)?.(body);
  if (problem !== undefined) {
    throw new BadRequestException(problem);
  }
  if (getMetadataStorage().getTargetValidationMetadatas(type, '', true, false).length > 0) {
    const errors = await validate(body, {
      forbidUnknownValues: false,
      validationError: { target: false, value: false },
    });
    if (errors.length > 0) {
      throw validationException(errors);
    }
  }
  return body;
}

/** The request schema of a @GoStruct class, from its decorators. */
export function goStructSchema(type: object): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of fieldsOf(type)) {
    properties[field.key] = field.schema();
    if (field.required) {
      required.push(field.key);
    }
  }
  const description = structOf(type)?.options.description;
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    properties,
    ...(required.length > 0 ? { required } : {}),
  };
}

/**
 * Decodes a nested struct's object (GoField.struct): its fields' texts name `at.struct`, or the
 * nested struct itself with `namedAfter: 'nested'`.
 */
export function decodeNested(
  type: Class,
  value: Record<string, unknown>,
  at: GoFieldAt,
  namedAfter: 'outer' | 'nested' = 'outer',
): object {
  const struct = namedAfter === 'nested' ? (structOf(type)?.name ?? type.name) : at.struct;
  return decodeFields(type, value, at.columns ?? [], { ...at, struct });
}
