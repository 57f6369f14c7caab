import type { JsonSchema } from 'src/common/validation/json-schema';
import { BadRequestException } from '@nestjs/common';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/**
 * The body of POST steering/{id}/targets and PUT steering/{id}/targets/{targetId}:
 * `{targetId, value, typeId}` (PUT takes the target from the path). Validated by hand because the
 * original words and joins these errors its own way (lib/go-tc SteeringTargetNullable.Validate):
 * `missing typeId; missing value`, joined with `; `.
 */
export interface SteeringTargetFields {
  targetId: number | null;
  typeId: number | null;
  value: number | null;
}

const MAX_ID = 2147483647;

function isObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

function optionalInt(body: Record<string, unknown>, field: string): number | null {
  const value = body[field];
  if (value === undefined || value === null) {
    return null;
  }
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new BadRequestException(`'${field}' must be an integer`);
  }
  return value;
}

/**
 * `value` is the original's JSONIntStr: an integer, or a string holding one. It is stored in a
 * BIGINT; anything beyond the integers JSON numbers carry exactly is refused.
 */
function optionalValue(body: Record<string, unknown>): number | null {
  const raw = body.value;
  if (raw === undefined || raw === null) {
    return null;
  }
  const value = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new BadRequestException("'value' must be an integer");
  }
  if (value > Number.MAX_SAFE_INTEGER) {
    throw new BadRequestException(`'value' must be no greater than ${Number.MAX_SAFE_INTEGER}`);
  }
  if (value < Number.MIN_SAFE_INTEGER) {
    throw new BadRequestException(`'value' must be no less than ${Number.MIN_SAFE_INTEGER}`);
  }
  return value;
}

/** JSON types only; presence and the type's table are checked by the service. */
export function parseSteeringTargetBody(body: unknown): SteeringTargetFields {
  const object = body === undefined || body === null ? {} : body;
  if (!isObject(object)) {
    throw new BadRequestException(BODY_NOT_AN_OBJECT);
  }
  const targetId = optionalInt(object, 'targetId');
  const typeId = optionalInt(object, 'typeId');
  const value = optionalValue(object);
  return { targetId, typeId, value };
}

/** Whether an id can name a row at all (the columns are 32-bit); others simply match nothing. */
export function isStorableId(id: number): boolean {
  return id >= 1 && id <= MAX_ID;
}

/** The body class of POST and PUT steering/{id}/targets, read by parseSteeringTargetBody. */
export class SteeringTargetBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      targetId: {
        type: 'integer',
        description: 'the target delivery service (POST; PUT takes it from the path)',
      },
      value: { type: 'integer' },
      typeId: { type: 'integer', description: 'a steering target type' },
    },
    required: ['value', 'typeId'],
  };
  static readonly parse = (raw: unknown): SteeringTargetFields => parseSteeringTargetBody(raw);
}
