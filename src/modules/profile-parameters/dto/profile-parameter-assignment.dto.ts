import { GoField } from 'src/common/validation/go-field';
import { GoDecodeError, type GoDecoder, GoStruct } from 'src/common/validation/go-struct';
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

/** The original's decoding texts name the field unquoted (`profileId must be an integer`). */
const id: GoDecoder = (value, at) => {
  if (!fitsColumn(value)) {
    throw new GoDecodeError(`${at.path} ${intProblem(value)}`);
  }
  return value;
};

const ids: GoDecoder = (value, at) => {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'number' || !Number.isInteger(v))) {
    throw new GoDecodeError(`${at.path} must be an array of integers`);
  }
  if (value.length > MAX_PARAM_IDS) {
    throw new GoDecodeError(`${at.path} must have at most ${MAX_PARAM_IDS} items`);
  }
  return (value as unknown[]).map((v, index) => id(v, { ...at, path: `${at.path}[${index}]` }));
};

const boolean: GoDecoder = (value, at) => {
  if (typeof value !== 'boolean') {
    throw new GoDecodeError(`${at.path} must be a boolean`);
  }
  return value;
};

/**
 * Decoded as the original's api.Parse does: a missing body or a field of the wrong JSON type is
 * `parse error: decoding: …`, the first one only; the presence and existence checks (`parse error:
 * validating: …`) need the database and are the service's.
 */
@GoStruct('PostProfileParam', {
  failure: 'parse error: decoding: ',
  withCause: true,
  eofWhenNoBody: true,
  notAnObject: 'parse error: decoding: the request body must be a JSON object',
})
export class ProfileParameterAssignmentBody implements ProfileParameterAssignment {
  @GoField.decoded(id, { type: 'integer' }, { required: true })
  profileId: number | null = null;

  @GoField.decoded(
    ids,
    { type: 'array', items: { type: 'integer' }, description: `at most ${MAX_PARAM_IDS} ids` },
    { required: true },
  )
  paramIds: number[] | null = null;

  @GoField.decoded(boolean, { type: 'boolean' })
  replace = false;
}
