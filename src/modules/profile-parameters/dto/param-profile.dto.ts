import { BadRequestException } from '@nestjs/common';
import type { JsonSchema } from 'src/common/validation/json-schema';
import { intProblem } from 'src/common/validation/integers';
import type { BodyContext } from 'src/common/validation/valid-body';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Body of POST /parameterprofile (docs/original-behaviour.md#parameterprofile): a parameter and the
 * profiles to give it, `replace` (default false) first removing its other profiles. Wrong JSON types
 * answer `parse error: decoding: …`; missing fields `parse error: validating: paramId missing,
 * profileIds missing` (the existence of what they name is checked by the service, in the same
 * words). Ids are bounded by their 32-bit columns.
 */
export class ParamProfileBody {
  paramId!: number;
  profileIds!: number[];
  replace!: boolean;

  static readonly schema: JsonSchema = {
    type: 'object',
    properties: {
      paramId: { type: 'integer' },
      profileIds: { type: 'array', items: { type: 'integer' } },
      replace: { type: 'boolean' },
    },
    required: ['paramId', 'profileIds'],
  };

  static readonly parse = (raw: unknown, { present }: BodyContext): ParamProfileBody => {
    if (!present) {
      throw new BadRequestException('parse error: decoding: EOF');
    }
    if (!isPlainObject(raw)) {
      throw new BadRequestException('parse error: decoding: the request body must be a JSON object');
    }
    const decoding: string[] = [];
    const { paramId, profileIds, replace } = raw;
    if (paramId !== undefined && paramId !== null) {
      const problem = intProblem(paramId);
      if (problem) {
        decoding.push(`'paramId' ${problem}`);
      }
    }
    if (profileIds !== undefined && profileIds !== null) {
      if (!Array.isArray(profileIds)) {
        decoding.push("'profileIds' must be an array of integers");
      } else {
        const index = profileIds.findIndex((id) => intProblem(id) !== undefined);
        if (index >= 0) {
          decoding.push(`'profileIds[${index}]' ${intProblem(profileIds[index])}`);
        }
      }
    }
    if (replace !== undefined && replace !== null && typeof replace !== 'boolean') {
      decoding.push("'replace' must be a boolean");
    }
    if (decoding.length > 0) {
      throw new BadRequestException(`parse error: decoding: ${decoding.join(', ')}`);
    }
    const missing: string[] = [];
    if (paramId === undefined || paramId === null) {
      missing.push('paramId missing');
    }
    if (profileIds === undefined || profileIds === null) {
      missing.push('profileIds missing');
    }
    if (missing.length > 0) {
      throw new BadRequestException(`parse error: validating: ${missing.join(', ')}`);
    }
    const body = new ParamProfileBody();
    body.paramId = paramId as number;
    body.profileIds = profileIds as number[];
    body.replace = (replace as boolean | null | undefined) ?? false;
    return body;
  };
}
