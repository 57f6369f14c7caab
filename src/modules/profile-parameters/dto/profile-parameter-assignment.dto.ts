import type { JsonSchema } from 'src/common/validation/json-schema';
import type { BodyContext } from 'src/common/validation/valid-body';
import { BadRequestException } from '@nestjs/common';
import { fitsColumn, intProblem } from 'src/common/validation/integers';

/** Most parameter ids one request may name (a bound on the statement's size, not a rule of the original). */
export const MAX_PARAM_IDS = 10_000;

/**
 * The body of POST /profileparameter (lib/go-tc PostProfileParam): a profile and the parameters
 * to assign to it; `replace` (false when absent) first removes the profile's other parameters.
 * `profileId` and `paramIds` are null when missing: the service words that with the lookups.
 */
export interface ProfileParameterAssignment {
  profileId: number | null;
  paramIds: number[] | null;
  replace: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Decodes the body as the original's api.Parse does: a missing body or a field of the wrong JSON
 * type is `parse error: decoding: …`; the presence and existence checks
 * (`parse error: validating: …`) need the database and are the service's.
 */
export function parseProfileParameterAssignment(body: unknown, present: boolean): ProfileParameterAssignment {
  const decoding = (problem: string) => new BadRequestException(`parse error: decoding: ${problem}`);
  if (!present) {
    throw decoding('EOF');
  }
  if (!isObject(body)) {
    throw decoding('the request body must be a JSON object');
  }
  const { profileId, paramIds, replace } = body;
  if (profileId !== undefined && profileId !== null && !fitsColumn(profileId)) {
    throw decoding(`profileId ${intProblem(profileId)}`);
  }
  if (paramIds !== undefined && paramIds !== null) {
    if (!Array.isArray(paramIds) || paramIds.some((id) => typeof id !== 'number' || !Number.isInteger(id))) {
      throw decoding('paramIds must be an array of integers');
    }
    if (paramIds.length > MAX_PARAM_IDS) {
      throw decoding(`paramIds must have at most ${MAX_PARAM_IDS} items`);
    }
    const outOfRange = paramIds.findIndex((id) => !fitsColumn(id));
    if (outOfRange >= 0) {
      throw decoding(`paramIds[${outOfRange}] ${intProblem(paramIds[outOfRange])}`);
    }
  }
  if (replace !== undefined && replace !== null && typeof replace !== 'boolean') {
    throw decoding('replace must be a boolean');
  }
  return {
    profileId: profileId ?? null,
    paramIds: (paramIds as number[] | null | undefined) ?? null,
    replace: replace ?? false,
  };
}

/** The body class of POST /profileparameter, read by parseProfileParameterAssignment. */
export class ProfileParameterAssignmentBody {
  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      profileId: { type: 'integer' },
      paramIds: { type: 'array', items: { type: 'integer' }, description: `at most ${MAX_PARAM_IDS} ids` },
      replace: { type: 'boolean' },
    },
    required: ['profileId', 'paramIds'],
  };
  static readonly parse = (raw: unknown, { present }: BodyContext): ProfileParameterAssignment =>
    parseProfileParameterAssignment(raw, present);
}
