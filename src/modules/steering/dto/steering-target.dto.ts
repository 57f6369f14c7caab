import type { JsonSchema } from 'src/common/validation/json-schema';
import { BadRequestException } from '@nestjs/common';
import { BIGINT, INT32, type IntColumn, intProblem } from 'src/common/validation/integers';
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

function isObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/** An integer field within its column's range, or null when absent. */
function optionalInt(value: unknown, field: string, column: IntColumn): number | null {
  if (value === undefined || value === null) {
    return null;
  }
  const problem = intProblem(value, column);
  if (problem !== undefined) {
    throw new BadRequestException(`'${field}' ${problem}`);
  }
  return value as number;
}

/**
 * `value` is the original's JSONIntStr: an integer, or a string holding one. It is stored in a
 * BIGINT; anything beyond the integers JSON numbers carry exactly is refused.
 */
function optionalValue(raw: unknown): number | null {
  const value = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
  return optionalInt(value, 'value', BIGINT);
}

/** JSON types only; presence and the type's table are checked by the service. */
export function parseSteeringTargetBody(body: unknown): SteeringTargetFields {
  const object = body === undefined || body === null ? {} : body;
  if (!isObject(object)) {
    throw new BadRequestException(BODY_NOT_AN_OBJECT);
  }
  const targetId = optionalInt(object.targetId, 'targetId', INT32);
  const typeId = optionalInt(object.typeId, 'typeId', INT32);
  const value = optionalValue(object.value);
  return { targetId, typeId, value };
}

/** Whether an id can name a row at all (ids start at 1); others simply match nothing. */
export function isStorableId(id: number): boolean {
  return id >= 1 && id <= INT32.max;
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
