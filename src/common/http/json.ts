import type { Response } from 'express';
import { type Alert } from 'src/common/http/alerts';
import { formatTrafficOpsTime } from 'src/common/time/timestamps';
import type { DateFormat } from 'src/common/wire/wire-times';
import { NONE, type TimePlan, WALK } from 'src/common/wire/schemas/time-plan';

/**
 * Replaces, in place, every Date in a freshly built response value by its wire form (docs/decisions.md#d4).
 * A plain walk is several times cheaper than a JSON.stringify replacer called for every key.
 */
export function datesToWire(value: unknown, format: DateFormat): unknown {
  if (value instanceof Date) {
    return format(value);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null) {
        value[i] = datesToWire(item, format);
      }
    }
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const field = record[key];
      if (typeof field === 'object' && field !== null) {
        record[key] = datesToWire(field, format);
      }
    }
  }
  return value;
}

/**
 * JSON with every Date written in `format` (the route's, src/common/wire/wire-times.ts; by default the
 * Traffic Ops custom form); the body may be rewritten in place.
 */
export function serializeJson(body: unknown, format: DateFormat = formatTrafficOpsTime): string {
  return JSON.stringify(datesToWire(body, format));
}

/**
 * JSON of a body whose Dates are where `plan` says (its route's wire schema,
 * src/common/wire/schemas/time-plan.ts): only those places are visited. With `check` (the tests'
 * WIRE_TIMES_CHECK) a Date the plan did not write is an error naming where it is, so that a wire
 * type that says less than its mapper writes fails the suite that calls the route.
 */
export function serializeJsonByPlan(
  body: unknown,
  format: DateFormat,
  plan: TimePlan,
  check = false,
): string {
  if (plan === WALK) {
    return serializeJson(body, format);
  }
  if (plan !== NONE && typeof body === 'object' && body !== null) {
    plan(body, format, datesToWire);
  }
  if (check) {
    const left = dateIn(body, '$');
    if (left) {
      throw new Error(
        `a Date at ${left} is not where the route's wire schema has a time (npm run wire-schemas)`,
      );
    }
  }
  return JSON.stringify(body);
}

function dateIn(value: unknown, path: string): string | undefined {
  if (value instanceof Date) {
    return path;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, field] of Object.entries(value)) {
      const found = dateIn(field, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`);
      if (found) {
        return found;
      }
    }
  }
  return undefined;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export function sendJson(res: Response, status: number, body: unknown): void {
  res.status(status).setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.send(serializeJson(body));
}

export function sendAlerts(res: Response, status: number, alerts: Alert[]): void {
  sendJson(res, status, { alerts });
}
