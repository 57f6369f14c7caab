import type { JsonSchema, WireSchemaFile } from 'src/common/wire/schemas/wire-schemas';

/** An OpenAPI 3.0 schema object, as the documents write it. */
export type OpenApiSchema = Record<string, unknown>;

const SCHEMAS = '#/components/schemas/';

/** The original's own time form, `tc.TimeNoMod` (docs/decisions.md#d4). */
const TRAFFIC_OPS_TIME: OpenApiSchema = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\+00$',
  example: '2024-05-25 15:59:33+00',
};
const RFC3339_TIME: OpenApiSchema = { type: 'string', format: 'date-time' };

/** The envelope's own parts, which every document holds. */
const ENVELOPE_SCHEMAS: Record<string, OpenApiSchema> = {
  Alerts: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        text: { type: 'string' },
        level: { type: 'string', enum: ['success', 'info', 'warning', 'error'] },
      },
      required: ['text', 'level'],
    },
  },
  Summary: {
    type: 'object',
    description: 'how many items match before paging',
    properties: { count: { type: 'number' } },
    required: ['count'],
  },
};

/**
 * Turns the generated wire schemas (src/common/wire/schemas) into one document's response schemas:
 * references into `components.schemas`, times into the route's format. A wire type holding a time
 * is one component per format it is written in: `CdnWire` (Traffic Ops' own form) and, where a
 * route writes RFC 3339, `CdnWire.rfc3339`.
 */
export class ResponseSchemas {
  /** The components the document's operations refer to so far. */
  readonly components: Record<string, OpenApiSchema> = { ...ENVELOPE_SCHEMAS };
  private readonly timed = new Map<string, boolean>();

  constructor(private readonly file: WireSchemaFile) {}

  /** A body schema in the document's terms; `rfc3339`: the route writes its times so. */
  body(schema: JsonSchema, rfc3339: boolean): OpenApiSchema {
    return this.convert(schema, rfc3339);
  }

  private convert(schema: JsonSchema, rfc3339: boolean): OpenApiSchema {
    if (schema.$ref !== undefined) {
      return { $ref: SCHEMAS + this.component(schema.$ref, rfc3339) };
    }
    if (schema['x-wire-time']) {
      return {
        ...(rfc3339 ? RFC3339_TIME : TRAFFIC_OPS_TIME),
        ...(schema.nullable ? { nullable: true } : {}),
      };
    }
    const out: OpenApiSchema = {};
    for (const [key, value] of Object.entries(schema)) {
      switch (key) {
        case 'properties':
          out.properties = Object.fromEntries(
            Object.entries(value as Record<string, JsonSchema>).map(([name, property]) => [
              name,
              this.convert(property, rfc3339),
            ]),
          );
          break;
        case 'items':
        case 'additionalProperties':
          out[key] = this.convert(value as JsonSchema, rfc3339);
          break;
        case 'anyOf':
          out.anyOf = (value as JsonSchema[]).map((member) => this.convert(member, rfc3339));
          break;
        case 'x-untyped':
          out.description = 'any JSON value';
          break;
        case 'x-null':
          out.nullable = true;
          out.enum = [null];
          break;
        case 'x-or-empty':
          out.description = 'with WIRE_COMPAT=traffic-ops; otherwise the answer has no body';
          break;
        default:
          out[key] = value;
      }
    }
    return out;
  }

  /** The component's name for a wire type in a time format, added to the document on first use. */
  private component(name: string, rfc3339: boolean): string {
    if (name in ENVELOPE_SCHEMAS) {
      return name;
    }
    const type = this.file.types[name];
    if (!type) {
      throw new Error(`the wire schemas have no type ${name}: run npm run wire-schemas`);
    }
    const own = rfc3339 && this.holdsTime(name) ? `${name}.rfc3339` : name;
    if (!(own in this.components)) {
      this.components[own] = {};
      this.components[own] = this.convert(type, rfc3339);
    }
    return own;
  }

  /** Whether a wire type holds a time, itself or through the types it refers to. */
  private holdsTime(name: string): boolean {
    const known = this.timed.get(name);
    if (known !== undefined) {
      return known;
    }
    this.timed.set(name, false);
    const found = this.search(this.file.types[name]);
    this.timed.set(name, found);
    return found;
  }

  private search(schema: JsonSchema | undefined): boolean {
    if (!schema) {
      return false;
    }
    if (schema['x-wire-time']) {
      return true;
    }
    if (schema.$ref !== undefined) {
      return !(schema.$ref in ENVELOPE_SCHEMAS) && this.holdsTime(schema.$ref);
    }
    return (
      Object.values(schema.properties ?? {}).some((property) => this.search(property)) ||
      this.search(schema.items) ||
      this.search(schema.additionalProperties) ||
      (schema.anyOf ?? []).some((member) => this.search(member))
    );
  }
}
