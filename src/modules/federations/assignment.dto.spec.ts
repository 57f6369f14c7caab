import type { BadRequestException } from '@nestjs/common';
import { type AssignmentRules, parseAssignment } from './assignment.dto';

const USERS: AssignmentRules = { key: 'userIds', required: true, decodingPrefix: 'parse error: decoding: ' };
const RESOLVERS: AssignmentRules = {
  key: 'fedResolverIds',
  required: false,
  decodingPrefix: 'malformed JSON: ',
};

const messageOf = (body: unknown, rules = USERS, hasBody = true): string => {
  try {
    parseAssignment(body, hasBody, rules);
  } catch (error) {
    return (error as BadRequestException).message;
  }
  throw new Error('no error');
};

describe('parseAssignment', () => {
  it('reads the ids and replace, keeping absent values null', () => {
    expect(parseAssignment({ userIds: [1, 2], replace: true }, true, USERS)).toEqual({
      ids: [1, 2],
      replace: true,
    });
    expect(parseAssignment({ userIds: [] }, true, USERS)).toEqual({ ids: [], replace: null });
    expect(parseAssignment({}, true, RESOLVERS)).toEqual({ ids: null, replace: null });
  });

  it('answers decoding problems with the route prefix', () => {
    expect(messageOf(undefined, USERS, false)).toBe('parse error: decoding: EOF');
    expect(messageOf(undefined, RESOLVERS, false)).toBe('malformed JSON: EOF');
    expect(messageOf([1])).toBe('parse error: decoding: the request body must be a JSON object');
    expect(messageOf({ userIds: 'x' })).toBe('parse error: decoding: userIds must be an array of integers');
    expect(messageOf({ userIds: [1.5] })).toBe('parse error: decoding: userIds must be an array of integers');
    expect(messageOf({ userIds: ['1'] })).toBe('parse error: decoding: userIds must be an array of integers');
    expect(messageOf({ userIds: [1, 2 ** 31] })).toBe(
      'parse error: decoding: userIds[1] must be no greater than 2147483647',
    );
    expect(messageOf({ userIds: [-(2 ** 53) - 2] })).toBe(
      'parse error: decoding: userIds[0] must be no less than -2147483648',
    );
    expect(messageOf({ userIds: [1], replace: 'yes' })).toBe(
      'parse error: decoding: replace must be a boolean',
    );
  });

  it('requires the list where the route does', () => {
    expect(messageOf({ replace: true })).toBe('parse error: validating: userIds: is required.');
    expect(messageOf({ userIds: null })).toBe('parse error: validating: userIds: is required.');
  });
});
