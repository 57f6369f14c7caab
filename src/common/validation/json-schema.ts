import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { collectionOf } from 'src/common/validation/body-collections';
import { goStructSchema, isGoStruct } from 'src/common/validation/go-struct';
import type { BodyDeclaration, BodyType } from 'src/common/validation/valid-body';

/** A JSON schema, as OpenAPI 3.0 writes it. */
export interface JsonSchema {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema;
  oneOf?: JsonSchema[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  nullable?: boolean;
}

/**
 * Body classes are described from their own declarations, so the document cannot drift from what the
 * API checks: class-validator classes from their rules, @GoStruct classes from their GoField
 * decorators, collections (ArrayOf, MapOf) as an array of their item's schema or an object whose
 * additionalProperties are their value's. A class that still validates itself (a static `parse`)
 * documents its shape with a static `schema` (the allow-list in src/app.hand-parsers.spec.ts).
 */
type Documented = BodyType & { schema?: JsonSchema };

const TYPE_OF_RULE: Record<string, string> = {
  isString: 'string',
  isInt: 'integer',
  isNumber: 'number',
  isBoolean: 'boolean',
  isArray: 'array',
  isObject: 'object',
};

function propertySchema(rules: ValidationMetadata[], target: BodyType, property: string): JsonSchema {
  const schema: JsonSchema = {};
  const item: JsonSchema = {};
  for (const rule of rules) {
    const into = rule.each ? item : schema;
    const constraint = (rule.constraints as unknown[] | undefined)?.[0];
    const type = TYPE_OF_RULE[rule.name ?? ''];
    if (type) {
      into.type = type;
    }
    switch (rule.name) {
      case 'min':
        into.minimum = constraint as number;
        break;
      case 'max':
        into.maximum = constraint as number;
        break;
      case 'maxLength':
        into.maxLength = constraint as number;
        break;
      case 'minLength':
        into.minLength = constraint as number;
        break;
      case 'isNotEmpty':
        into.minLength ??= 1;
        break;
      case 'isIn':
        into.enum = constraint as unknown[];
        break;
      case 'isEnum':
        into.enum = Object.values(constraint as object);
        break;
      default:
        break;
    }
    if (rule.type === 'nestedValidation') {
      const nested = defaultMetadataStorage.findTypeMetadata(target, property)?.typeFunction() as
        BodyType | undefined;
      if (nested) {
        Object.assign(schema.type === 'array' || rule.each ? item : schema, classSchema(nested));
      }
    }
  }
  if (schema.type === 'array' || Object.keys(item).length > 0) {
    schema.type = 'array';
    schema.items = item;
  }
  return schema;
}

/** The schema of one body class. */
export function classSchema(type: Documented): JsonSchema {
  if (type.schema) {
    return type.schema;
  }
  if (isGoStruct(type)) {
    return goStructSchema(type);
  }
  const collection = collectionOf(type);
  if (collection) {
    const { kind, item, options } = collection;
    const one: JsonSchema = item === Number ? { type: 'integer' } : classSchema(item as BodyType);
    return {
      type: kind === 'array' ? 'array' : 'object',
      ...(options.description === undefined ? {} : { description: options.description }),
      ...(kind === 'array' ? { items: one } : { additionalProperties: one }),
    };
  }
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(type, '', true, false)) {
    byProperty.set(rule.propertyName, [...(byProperty.get(rule.propertyName) ?? []), rule]);
  }
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [property, rules] of byProperty) {
    properties[property] = propertySchema(rules, type, property);
    if (rules.some((rule) => rule.type === 'isDefined')) {
      required.push(property);
    }
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** The request body of one version of a route. */
export function requestBodySchema(declaration: BodyDeclaration, type: BodyType): JsonSchema {
  const one = classSchema(type);
  return declaration.options.many ? { oneOf: [one, { type: 'array', items: one }] } : one;
}
