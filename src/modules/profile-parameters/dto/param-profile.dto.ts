import { GoField } from 'src/common/validation/go-field';
import { type ColumnRead, GoStruct } from 'src/common/validation/go-struct';
import { intProblem } from 'src/common/validation/integers';

/** Null reads as absent (left for the presence check). */
const ABSENT: ColumnRead = { value: undefined };

function readId(value: unknown): ColumnRead {
  if (value === null) {
    return ABSENT;
  }
  const problem = intProblem(value);
  return problem === undefined ? { value } : { problem: `'paramId' ${problem}` };
}

/** The first id out of an integer's range is named (`'profileIds[1]' must be an integer`). */
function readIds(value: unknown): ColumnRead {
  if (value === null) {
    return ABSENT;
  }
  if (!Array.isArray(value)) {
    return { problem: "'profileIds' must be an array of integers" };
  }
  const index = value.findIndex((id) => intProblem(id) !== undefined);
  return index < 0 ? { value } : { problem: `'profileIds[${index}]' ${intProblem(value[index])}` };
}

function readReplace(value: unknown): ColumnRead {
  if (value === null) {
    return { value: false };
  }
  return typeof value === 'boolean' ? { value } : { problem: "'replace' must be a boolean" };
}

/** `parse error: validating: paramId missing, profileIds missing`. */
function missingFields(body: ParamProfileBody): string | undefined {
  const missing: string[] = [];
  if (body.paramId === undefined) {
    missing.push('paramId missing');
  }
  if (body.profileIds === undefined) {
    missing.push('profileIds missing');
  }
  return missing.length > 0 ? `parse error: validating: ${missing.join(', ')}` : undefined;
}

/**
 * Body of POST /parameterprofile (docs/original-behaviour.md#parameterprofile): a parameter and the
 * profiles to give it, `replace` (default false) first removing its other profiles. Wrong JSON types
 * answer `parse error: decoding: …`, every field's problem listed; missing fields `parse error:
 * validating: paramId missing, profileIds missing` (the existence of what they name is checked by the
 * service, in the same words). Ids are bounded by their 32-bit columns.
 */
@GoStruct<ParamProfileBody>('PostParamProfile', {
  failure: 'parse error: decoding: ',
  withCause: true,
  eofWhenNoBody: true,
  notAnObject: 'parse error: decoding: the request body must be a JSON object',
  check: missingFields,
})
export class ParamProfileBody {
  @GoField.collected(readId, { type: 'integer' }, { required: true })
  paramId!: number;

  @GoField.collected(readIds, { type: 'array', items: { type: 'integer' } }, { required: true })
  profileIds!: number[];

  @GoField.collected(readReplace, { type: 'boolean' })
  replace = false;
}
