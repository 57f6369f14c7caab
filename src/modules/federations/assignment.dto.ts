import type { JsonSchema } from 'src/common/validation/json-schema';
import type { BodyContext } from 'src/common/validation/valid-body';
import { BadRequestException } from '@nestjs/common';
import { fitsColumn, intProblem } from 'src/common/validation/integers';

/** The body of the routes that assign ids to a federation: `{<ids>: [int], replace: bool}`. */
export interface Assignment {
  /** null when the request left the list out (echoed as such). */
  ids: number[] | null;
  /** null when the request left `replace` out (echoed as such). */
  replace: boolean | null;
}

export interface AssignmentRules {
  /** `userIds`, `dsIds`, `fedResolverIds`. */
  key: string;
  /** Whether the list must be present (`<key>: is required.`). */
  required: boolean;
  /** How the route words its decoding problems: `parse error: decoding: ` or `malformed JSON: `. */
  decodingPrefix: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Reads an assignment body as the original does (api.Parse): decoding problems (no body, wrong
 * JSON types) first, then the validation of the list's presence when the route requires it.
 */
export function parseAssignment(body: unknown, hasBody: boolean, rules: AssignmentRules): Assignment {
  const decoding = (problem: string) => new BadRequestException(`${rules.decodingPrefix}${problem}`);
  if (!hasBody) {
    throw decoding('EOF');
  }
  if (!isObject(body)) {
    throw decoding('the request body must be a JSON object');
  }
  const ids = body[rules.key];
  if (
    ids !== undefined &&
    ids !== null &&
    (!Array.isArray(ids) || ids.some((id) => typeof id !== 'number' || !Number.isInteger(id)))
  ) {
    throw decoding(`${rules.key} must be an array of integers`);
  }
  // Ids are 32-bit columns: a larger one is refused, not looked up.
  const outOfRange = Array.isArray(ids) ? ids.findIndex((id) => !fitsColumn(id)) : -1;
  if (outOfRange >= 0) {
    throw decoding(`${rules.key}[${outOfRange}] ${intProblem((ids as number[])[outOfRange])}`);
  }
  const replace = body.replace;
  if (replace !== undefined && replace !== null && typeof replace !== 'boolean') {
    throw decoding('replace must be a boolean');
  }
  if (rules.required && (ids === undefined || ids === null)) {
    throw new BadRequestException(`parse error: validating: ${rules.key}: is required.`);
  }
  return { ids: (ids as number[] | null | undefined) ?? null, replace: replace ?? null };
}

/** POST federations/{id}/users: `userIds` required, read after the federation's 404. */
export class UserAssignmentBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: { userIds: { type: 'array', items: { type: 'integer' } }, replace: { type: 'boolean' } },
    required: ['userIds'],
  };
  static readonly parse = (raw: unknown, { present }: BodyContext): Assignment =>
    parseAssignment(raw, present, {
      key: 'userIds',
      required: true,
      decodingPrefix: 'parse error: decoding: ',
    });
}

/** POST federations/{id}/deliveryservices: `dsIds` required, read after the federation's 404. */
export class DeliveryServiceAssignmentBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: { dsIds: { type: 'array', items: { type: 'integer' } }, replace: { type: 'boolean' } },
    required: ['dsIds'],
  };
  static readonly parse = (raw: unknown, { present }: BodyContext): Assignment =>
    parseAssignment(raw, present, {
      key: 'dsIds',
      required: true,
      decodingPrefix: 'parse error: decoding: ',
    });
}

/** POST federations/{id}/federation_resolvers: `fedResolverIds` optional. */
export class ResolverAssignmentBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      fedResolverIds: { type: 'array', items: { type: 'integer' } },
      replace: { type: 'boolean' },
    },
    required: [],
  };
  static readonly parse = (raw: unknown, { present }: BodyContext): Assignment =>
    parseAssignment(raw, present, {
      key: 'fedResolverIds',
      required: false,
      decodingPrefix: 'malformed JSON: ',
    });
}
