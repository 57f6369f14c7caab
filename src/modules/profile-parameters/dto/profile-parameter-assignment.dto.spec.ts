import { decodeGoStruct } from 'src/common/validation/go-struct';
import { ProfileParameterAssignmentBody } from './profile-parameter-assignment.dto';
import { refusalOf } from 'test/support/refusal';

const parseProfileParameterAssignment = (body: unknown, present: boolean) =>
  decodeGoStruct(body, ProfileParameterAssignmentBody, { present });

const message = (body: unknown, present = true): Promise<string> =>
  refusalOf(() => parseProfileParameterAssignment(body, present));

describe('ProfileParameterAssignmentBody (POST profileparameter)', () => {
  it('reads the body, replace false when absent, missing ids as null for the validation', async () => {
    expect(await parseProfileParameterAssignment({ profileId: 1, paramIds: [2, 3] }, true)).toEqual({
      profileId: 1,
      paramIds: [2, 3],
      replace: false,
    });
    expect(await parseProfileParameterAssignment({ replace: true }, true)).toEqual({
      profileId: null,
      paramIds: null,
      replace: true,
    });
  });

  it('answers decoding problems as the original (`parse error: decoding: …`)', async () => {
    expect(await message({}, false)).toBe('parse error: decoding: EOF');
    expect(await message([])).toBe('parse error: decoding: the request body must be a JSON object');
    expect(await message({ profileId: 'x' })).toBe('parse error: decoding: profileId must be an integer');
    expect(await message({ profileId: 1, paramIds: [1, 'x'] })).toBe(
      'parse error: decoding: paramIds must be an array of integers',
    );
    expect(await message({ profileId: 1, paramIds: [2 ** 31] })).toBe(
      'parse error: decoding: paramIds[0] must be no greater than 2147483647',
    );
    expect(await message({ profileId: 1, paramIds: [], replace: 1 })).toBe(
      'parse error: decoding: replace must be a boolean',
    );
    expect(await message(null)).toBe('parse error: decoding: the request body must be a JSON object');
    expect(await message({ profileId: 2 ** 31, paramIds: 'x', replace: 1 })).toBe(
      'parse error: decoding: profileId must be no greater than 2147483647',
    );
    expect(await message({ profileId: 1, paramIds: new Array(10_001).fill(1) })).toBe(
      'parse error: decoding: paramIds must have at most 10000 items',
    );
    expect(await message({ profileId: 1, paramIds: [...new Array(10_001).fill(2 ** 31), 'x'] })).toBe(
      'parse error: decoding: paramIds must be an array of integers',
    );
  });
});
