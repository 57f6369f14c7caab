import type { BadRequestException } from '@nestjs/common';
import { type Class, decodeGoStruct, goStructSchema } from 'src/common/validation/go-struct';
import {
  type Assignment,
  DeliveryServiceAssignmentBody,
  ResolverAssignmentBody,
  UserAssignmentBody,
} from './assignment.dto';

const USERS = UserAssignmentBody;
const RESOLVERS = ResolverAssignmentBody;

const read = async (body: unknown, type: Class<Assignment>, present = true) => {
  const assignment = await decodeGoStruct(body, type, { present });
  return { ids: assignment.ids, replace: assignment.replace };
};

const messageOf = async (body: unknown, type: Class<Assignment> = USERS, present = true): Promise<string> => {
  try {
    await decodeGoStruct(body, type, { present });
  } catch (error) {
    return (error as BadRequestException).message;
  }
  throw new Error('no error');
};

describe('federation assignment bodies', () => {
  it('read the ids and replace, keeping absent values null', async () => {
    expect(await read({ userIds: [1, 2], replace: true }, USERS)).toEqual({ ids: [1, 2], replace: true });
    expect(await read({ userIds: [] }, USERS)).toEqual({ ids: [], replace: null });
    expect(await read({ dsIds: [3], replace: false }, DeliveryServiceAssignmentBody)).toEqual({
      ids: [3],
      replace: false,
    });
    expect(await read({}, RESOLVERS)).toEqual({ ids: null, replace: null });
    expect(await read({ fedResolverIds: null, replace: null }, RESOLVERS)).toEqual({
      ids: null,
      replace: null,
    });
  });

  it('answer decoding problems with the route prefix, the first one only', async () => {
    expect(await messageOf(undefined, USERS, false)).toBe('parse error: decoding: EOF');
    expect(await messageOf({}, USERS, false)).toBe('parse error: decoding: EOF');
    expect(await messageOf(undefined, RESOLVERS, false)).toBe('malformed JSON: EOF');
    expect(await messageOf([1])).toBe('parse error: decoding: the request body must be a JSON object');
    expect(await messageOf(null)).toBe('parse error: decoding: the request body must be a JSON object');
    expect(await messageOf(null, RESOLVERS)).toBe('malformed JSON: the request body must be a JSON object');
    expect(await messageOf({ userIds: 'x' })).toBe(
      'parse error: decoding: userIds must be an array of integers',
    );
    expect(await messageOf({ userIds: 'x', replace: 1 })).toBe(
      'parse error: decoding: userIds must be an array of integers',
    );
    expect(await messageOf({ userIds: [1.5] })).toBe(
      'parse error: decoding: userIds must be an array of integers',
    );
    expect(await messageOf({ userIds: ['1'] })).toBe(
      'parse error: decoding: userIds must be an array of integers',
    );
    expect(await messageOf({ userIds: [1, 2 ** 31] })).toBe(
      'parse error: decoding: userIds[1] must be no greater than 2147483647',
    );
    expect(await messageOf({ userIds: [-(2 ** 53) - 2] })).toBe(
      'parse error: decoding: userIds[0] must be no less than -2147483648',
    );
    expect(await messageOf({ userIds: [1], replace: 'yes' })).toBe(
      'parse error: decoding: replace must be a boolean',
    );
    expect(await messageOf({ replace: 'yes' })).toBe('parse error: decoding: replace must be a boolean');
    expect(await messageOf({ dsIds: [1, 'x'] }, DeliveryServiceAssignmentBody)).toBe(
      'parse error: decoding: dsIds must be an array of integers',
    );
    expect(await messageOf({ fedResolverIds: {} }, RESOLVERS)).toBe(
      'malformed JSON: fedResolverIds must be an array of integers',
    );
  });

  it('require the list where the route does', async () => {
    expect(await messageOf({ replace: true })).toBe('parse error: validating: userIds: is required.');
    expect(await messageOf({ userIds: null })).toBe('parse error: validating: userIds: is required.');
    expect(await messageOf({}, DeliveryServiceAssignmentBody)).toBe(
      'parse error: validating: dsIds: is required.',
    );
  });

  it('document their fields', () => {
    expect(goStructSchema(USERS)).toEqual({
      type: 'object',
      properties: { userIds: { type: 'array', items: { type: 'integer' } }, replace: { type: 'boolean' } },
      required: ['userIds'],
    });
    expect(goStructSchema(RESOLVERS)).toEqual({
      type: 'object',
      properties: {
        fedResolverIds: { type: 'array', items: { type: 'integer' } },
        replace: { type: 'boolean' },
      },
    });
  });
});
