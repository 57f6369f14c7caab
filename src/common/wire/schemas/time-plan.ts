import type { DateFormat } from 'src/common/wire/wire-times';
import type { JsonSchema, WireSchemaFile } from 'src/common/wire/schemas/wire-schemas';

/**
 * Where a route's body holds its `Date`s, read once from its wire schema, so that the envelope
 * writes them (in the route's format, docs/decisions.md#d4) without visiting every value of the
 * body: a list of 1,000 servers has 1,000 × ~40 fields and 2,000 times.
 *
 * A plan is `NONE` (the schema has no time), `WALK` (the schema cannot say: `unknown` values, unions
 * of objects; the generic walk visits that part) or a function that writes the times of a value.
 */
export const NONE = 'none';
export const WALK = 'walk';
type Visit = (value: object, format: DateFormat, walk: Walk) => void;
export type TimePlan = typeof NONE | typeof WALK | Visit;
/** The generic walk: every Date under a value written in `format`; answers the value. */
export type Walk = (value: unknown, format: DateFormat) => unknown;

/** A field's own plan: `TIME` when the field is itself a time (its container writes it). */
const TIME = 'time';
type FieldPlan = TimePlan | typeof TIME;

export function timePlanFor(schema: JsonSchema | null | undefined, file: WireSchemaFile): TimePlan {
  if (!schema) {
    return schema === null ? NONE : WALK;
  }
  const plan = new TimePlanner(file).plan(schema);
  return plan === TIME ? WALK : plan;
}

class TimePlanner {
  private readonly named = new Map<string, FieldPlan | 'planning'>();

  constructor(private readonly file: WireSchemaFile) {}

  plan(schema: JsonSchema): FieldPlan {
    if (schema.$ref !== undefined) {
      return this.planNamed(schema.$ref);
    }
    if (schema['x-wire-time']) {
      return TIME;
    }
    if (schema['x-untyped']) {
      return WALK;
    }
    if (schema.anyOf) {
      const members = schema.anyOf.map((member) => this.plan(member));
      if (members.every((member) => member === NONE)) {
        return NONE;
      }
      // `string | Date` and the like: the field is written where it is a Date.
      return members.every((member) => member === NONE || member === TIME) ? TIME : WALK;
    }
    if (schema.type === 'array') {
      return arrayPlan(schema.items ? this.plan(schema.items) : NONE);
    }
    if (schema.type === 'object') {
      const fields = Object.entries(schema.properties ?? {})
        .map(([key, property]) => [key, this.plan(property)] as const)
        .filter(([, plan]) => plan !== NONE);
      const others = schema.additionalProperties ? this.plan(schema.additionalProperties) : NONE;
      return objectPlan(fields, Object.keys(schema.properties ?? {}), others);
    }
    return NONE;
  }

  private planNamed(name: string): FieldPlan {
    const known = this.named.get(name);
    if (known === 'planning') {
      // A type that holds itself: let the generic walk take it.
      return WALK;
    }
    if (known !== undefined) {
      return known;
    }
    const type = this.file.types[name];
    if (!type) {
      // The envelope's own parts (Alerts, Summary) hold no time.
      return name === 'Alerts' || name === 'Summary' ? NONE : WALK;
    }
    this.named.set(name, 'planning');
    const plan = this.plan(type);
    this.named.set(name, plan);
    return plan;
  }
}

/** Writes the field `key` of `container` by its plan. */
function writeField(
  container: Record<string | number, unknown>,
  key: string | number,
  plan: FieldPlan,
  format: DateFormat,
  walk: Walk,
): void {
  const value = container[key];
  if (value === null || typeof value !== 'object') {
    return;
  }
  if (plan === TIME || plan === WALK) {
    container[key] = value instanceof Date ? format(value) : plan === WALK ? walk(value, format) : value;
  } else if (plan !== NONE) {
    plan(value, format, walk);
  }
}

function arrayPlan(items: FieldPlan): FieldPlan {
  if (items === NONE) {
    return NONE;
  }
  return (value, format, walk) => {
    if (!Array.isArray(value)) {
      walk(value, format);
      return;
    }
    for (let i = 0; i < value.length; i++) {
      writeField(value as unknown as Record<number, unknown>, i, items, format, walk);
    }
  };
}

function objectPlan(
  fields: (readonly [string, FieldPlan])[],
  listed: string[],
  others: FieldPlan,
): FieldPlan {
  if (fields.length === 0 && others === NONE) {
    return NONE;
  }
  const known = new Set(listed);
  return (value, format, walk) => {
    const record = value as Record<string, unknown>;
    for (const [key, plan] of fields) {
      writeField(record, key, plan, format, walk);
    }
    if (others !== NONE) {
      for (const key of Object.keys(record)) {
        if (!known.has(key)) {
          writeField(record, key, others, format, walk);
        }
      }
    }
  };
}
