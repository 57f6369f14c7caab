/** An OpenAPI 3.0 schema object, as the documents write it. */
export interface OpenApiSchema {
  type?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  additionalProperties?: OpenApiSchema;
  items?: OpenApiSchema;
  anyOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  enum?: unknown[];
  nullable?: boolean;
  pattern?: string;
  format?: string;
  $ref?: string;
}

/**
 * Where `value` breaks `schema` (the subset of OpenAPI 3.0 the documents use: type, properties,
 * required, additionalProperties, items, anyOf/oneOf, enum, nullable, pattern, date-time and
 * `#/components/schemas/…` references); empty when it conforms. Properties a schema does not list
 * are errors too, unless it has `additionalProperties`: the documents list every field.
 */
export function schemaErrors(
  value: unknown,
  schema: OpenApiSchema,
  components: Record<string, OpenApiSchema>,
  path = '$',
): string[] {
  if (schema.$ref !== undefined) {
    const target = components[schema.$ref.replace('#/components/schemas/', '')];
    return target ? schemaErrors(value, target, components, path) : [`${path}: no schema ${schema.$ref}`];
  }
  if (value === null) {
    return schema.nullable || (schema.enum ?? []).includes(null) || isAny(schema)
      ? []
      : [`${path}: null where ${describe(schema)}`];
  }
  const members = schema.anyOf ?? schema.oneOf;
  if (members) {
    const errors = members.map((member) => schemaErrors(value, member, components, path));
    return errors.some((list) => list.length === 0)
      ? []
      : [`${path}: matches no member (${errors.flat().join('; ')})`];
  }
  const errors: string[] = [];
  if (schema.enum && !schema.enum.includes(value)) {
    errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  switch (schema.type) {
    case undefined:
      return errors;
    case 'string':
      if (typeof value !== 'string') {
        return [`${path}: ${JSON.stringify(value)} is not a string`];
      }
      if (schema.pattern && !new RegExp(schema.pattern).test(value)) {
        errors.push(`${path}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
      }
      if (
        schema.format === 'date-time' &&
        !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value)
      ) {
        errors.push(`${path}: ${JSON.stringify(value)} is not an RFC 3339 time`);
      }
      return errors;
    case 'number':
    case 'integer':
      return typeof value === 'number' ? errors : [`${path}: ${JSON.stringify(value)} is not a number`];
    case 'boolean':
      return typeof value === 'boolean' ? errors : [`${path}: ${JSON.stringify(value)} is not a boolean`];
    case 'array':
      if (!Array.isArray(value)) {
        return [`${path}: not an array`];
      }
      return value.flatMap((item, index) =>
        schemaErrors(item, schema.items ?? {}, components, `${path}[${index}]`),
      );
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) {
        return [`${path}: not an object`];
      }
      const record = value as Record<string, unknown>;
      for (const name of schema.required ?? []) {
        if (!(name in record)) {
          errors.push(`${path}: no ${name}`);
        }
      }
      for (const [name, field] of Object.entries(record)) {
        const property = schema.properties?.[name] ?? schema.additionalProperties;
        if (!property) {
          if (schema.properties) {
            errors.push(`${path}.${name}: not in the schema`);
          }
          continue;
        }
        errors.push(...schemaErrors(field, property, components, `${path}.${name}`));
      }
      return errors;
    }
    default:
      return [`${path}: unknown type ${schema.type}`];
  }
}

const isAny = (schema: OpenApiSchema) =>
  schema.type === undefined && !schema.anyOf && !schema.oneOf && !schema.enum;

const describe = (schema: OpenApiSchema) => schema.type ?? schema.$ref ?? 'a value';
