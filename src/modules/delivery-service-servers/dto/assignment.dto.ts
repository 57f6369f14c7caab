import type { JsonSchema } from 'src/common/validation/json-schema';
import { BadRequestException } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsDefined } from 'class-validator';
import { fitsColumn, intProblem } from 'src/common/validation/integers';
import { ColumnInt } from 'src/common/validation/rules';
import { BODY_NOT_AN_OBJECT } from 'src/common/validation/validation.options';
import type { BodyContext } from 'src/common/validation/valid-body';

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

/** Body of POST deliveryservices/{xmlId}/servers (lib/go-tc DeliveryServiceServers): null when left out. */
export interface HostNameAssignment {
  serverNames: string[] | null;
}

/**
 * Decodes the body of POST deliveryservices/{xmlId}/servers, read after the delivery service's
 * checks as the original does. The original answers any decoding failure `malformed JSON`; here
 * the text also says what is wrong (docs/decisions.md#d9).
 */
export function parseHostNameAssignment(body: unknown, present: boolean): HostNameAssignment {
  const malformed = (problem: string) => new BadRequestException(`malformed JSON: ${problem}`);
  if (!present) {
    throw malformed('EOF');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw malformed('the request body must be a JSON object');
  }
  const { serverNames } = body as Record<string, unknown>;
  if (serverNames === undefined || serverNames === null) {
    return { serverNames: null };
  }
  if (!Array.isArray(serverNames) || serverNames.some((name) => typeof name !== 'string')) {
    throw malformed('serverNames must be an array of strings');
  }
  if (serverNames.length > MAX_IDS) {
    throw malformed(`serverNames must have at most ${MAX_IDS} items`);
  }
  return { serverNames: serverNames as string[] };
}

/** The body class of POST deliveryservices/{xmlId}/servers, read by parseHostNameAssignment. */
export class HostNameAssignmentBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      serverNames: { type: 'array', items: { type: 'string' }, description: `at most ${MAX_IDS} names` },
    },
    required: [],
  };
  static readonly parse = (raw: unknown, { present }: BodyContext): HostNameAssignment =>
    parseHostNameAssignment(raw, present);
}

/**
 * Decodes the body of POST servers/{id}/deliveryservices: a JSON array of delivery service ids
 * (`null` counts as none, as the original's decoder reads it); anything else is the original's
 * `payload must be a list of integers representing delivery service ids`. Ids beyond the 32-bit
 * columns name the first such one (docs/decisions.md#d46).
 */
export function parseDeliveryServiceIds(body: unknown, present: boolean): number[] {
  const refused = new BadRequestException(
    'payload must be a list of integers representing delivery service ids',
  );
  if (!present) {
    throw refused;
  }
  if (body === null) {
    return [];
  }
  if (!isIntArray(body)) {
    throw refused;
  }
  if (body.length > MAX_IDS) {
    throw new BadRequestException(`the payload must have at most ${MAX_IDS} items`);
  }
  const i = body.findIndex((id) => !fitsColumn(id));
  if (i >= 0) {
    throw new BadRequestException(`'[${i}]' ${intProblem(body[i])}`);
  }
  return body;
}

/** The body class of POST servers/{id}/deliveryservices, read by parseDeliveryServiceIds. */
export class DeliveryServiceIdsBody {
  static readonly schema: JsonSchema = {
    type: 'array',
    items: { type: 'integer' },
    description: `delivery service ids, at most ${MAX_IDS}`,
  };
  static readonly parse = (raw: unknown, { present }: BodyContext): number[] =>
    parseDeliveryServiceIds(raw, present);
}
