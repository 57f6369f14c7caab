import type { ApiVersion } from 'src/common/versioning/api-version';
import generated from './wire-schemas.generated.json';

/**
 * The wire types' runtime form: JSON Schemas generated from the TypeScript types each handler
 * returns (src/common/wire/schemas/wire-schemas.generate.ts, `npm run wire-schemas`), kept in
 * wire-schemas.generated.json beside this file (not wire-schemas.json: Node would resolve this
 * module's path to the JSON before the TypeScript when the sources run through ts-node). The OpenAPI
 * documents describe responses with them; the envelope writes times where they say (time-plan.ts).
 *
 * Besides JSON Schema's own keywords a schema may carry:
 * - `$ref: 'Name'`: the named wire type `Name` of the file's `types` (or `Alerts`/`Summary`, the
 *   envelope's own, described by the documents);
 * - `x-wire-time`: a `Date`, written as a string in the route's time format (src/common/wire/wire-times.ts);
 * - `x-untyped`: the type says nothing of the value (`unknown`);
 * - `x-null`: the value is `null`;
 * - `x-or-empty`: the body, or none at all (the route's answer depends on the configuration).
 */
export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'number' | 'boolean';
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: (string | number | boolean)[];
  nullable?: boolean;
  description?: string;
  $ref?: string;
  'x-wire-time'?: true;
  'x-untyped'?: true;
  'x-null'?: true;
  'x-or-empty'?: true;
}

/** A route's body schema by version: each entry holds from its version until the next entry's. */
export type RouteSchemas = { from: string; schema: JsonSchema | null }[];

export interface WireSchemaFile {
  $comment: string;
  types: Record<string, JsonSchema>;
  /** By handler, `Controller.method` (the route inventory's names); `schema: null` is no body. */
  routes: Record<string, RouteSchemas>;
}

/** The generated file. */
export function wireSchemas(): WireSchemaFile {
  return generated as unknown as WireSchemaFile;
}

/** The body schema of a route (`Controller.method`) in a version; undefined for an unknown route. */
export function routeBodySchema(route: string, version: ApiVersion): JsonSchema | null | undefined {
  const entries = wireSchemas().routes[route];
  if (!entries) {
    return undefined;
  }
  let found: JsonSchema | null | undefined;
  for (const entry of entries) {
    if (version.atLeast(entry.from)) {
      found = entry.schema;
    }
  }
  return found === undefined ? entries[0].schema : found;
}
