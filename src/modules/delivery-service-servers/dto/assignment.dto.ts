import type { JsonSchema } from 'src/common/validation/json-schema';
import { BadRequestException } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsDefined } from 'class-validator';
import { fitsColumn, intProblem } from 'src/common/validation/integers';
import { ColumnInt } from 'src/common/validation/rules';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';

/** Most ids one request may name (a bound on the statement's size, not a rule of the original). */
export const MAX_IDS = 10_000;

/** Body of POST /deliveryserviceserver (docs/original-behaviour.md#deliveryserviceserver). */
export interface ServerAssignment {
  dsId: number;
  servers: number[];
  replace: boolean;
}

function isIntArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((v) => Number.isInteger(v));
}

/**
 * The original decodes the body itself and names a missing field in its own words, in this order:
 * `servers must exist in post`, `dsid must exist in post`, `replace must exist in post`. A field of the
 * wrong JSON type (a decoder error there), or an id beyond the 32-bit columns, is a 400 naming the
 * field (docs/decisions.md#d9).
 */
export function parseServerAssignment(body: unknown): ServerAssignment {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestException(BODY_NOT_AN_OBJECT);
  }
  const { dsId, servers, replace } = body as Record<string, unknown>;
  if (servers === undefined || servers === null) {
    throw new BadRequestException('servers must exist in post');
  }
  if (dsId === undefined || dsId === null) {
    throw new BadRequestException('dsid must exist in post');
  }
  if (replace === undefined || replace === null) {
    throw new BadRequestException('replace must exist in post');
  }
  const problems: string[] = [];
  const dsIdProblem = intProblem(dsId);
  if (dsIdProblem !== undefined) {
    problems.push(`'dsId' ${dsIdProblem}`);
  }
  if (!isIntArray(servers)) {
    problems.push("'servers' must be an array of integers");
  } else if (servers.length > MAX_IDS) {
    problems.push(`'servers' must have at most ${MAX_IDS} items`);
  } else {
    const i = servers.findIndex((id) => !fitsColumn(id));
    if (i >= 0) {
      problems.push(`'servers[${i}]' ${intProblem(servers[i])}`);
    }
  }
  if (typeof replace !== 'boolean') {
    problems.push("'replace' must be a boolean");
  }
  if (problems.length > 0) {
    throw new BadRequestException(problems.join(', '));
  }
  return { dsId: dsId as number, servers: servers as number[], replace: replace as boolean };
}

/** The body of cachegroups/{id}/deliveryservices (docs/original-behaviour.md#cachegroup-deliveryservices). */
export class CachegroupAssignmentDto {
  @IsDefined({ message: 'is required' })
  @IsArray({ message: 'must be an array of integers' })
  @ColumnInt(undefined, { each: true, message: 'must be an array of integers' })
  @ArrayMaxSize(MAX_IDS, { message: `must have at most ${MAX_IDS} items` })
  deliveryServices!: number[];
}

/** The body class of POST /deliveryserviceserver, read by parseServerAssignment. */
export class ServerAssignmentBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      dsId: { type: 'integer' },
      servers: { type: 'array', items: { type: 'integer' }, description: `at most ${MAX_IDS} ids` },
      replace: { type: 'boolean' },
    },
    required: ['dsId', 'servers', 'replace'],
  };
  static readonly parse = (raw: unknown): ServerAssignment => parseServerAssignment(raw);
}
