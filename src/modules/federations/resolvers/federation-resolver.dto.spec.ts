import type { BadRequestException } from '@nestjs/common';
import { decodeGoStruct, goStructSchema } from 'src/common/validation/go-struct';
import { FederationResolverBodyType } from './federation-resolver.dto';

const read = (body: unknown, present = true) => decodeGoStruct(body, FederationResolverBodyType, { present });

const messageOf = async (body: unknown, present = true): Promise<string> => {
  try {
    await read(body, present);
  } catch (error) {
    return (error as BadRequestException).message;
  }
  throw new Error('no error');
};

describe('FederationResolverBodyType', () => {
  it('reads the address, its family and the type', async () => {
    expect({ ...(await read({ ipAddress: '192.0.2.0/24', typeId: 3 })) }).toEqual({
      ipAddress: '192.0.2.0/24',
      typeId: 3,
      family: 4,
    });
    expect((await read({ ipAddress: '::1', typeId: 4 })).family).toBe(6);
  });

  it('words problems as the original', async () => {
    expect(await messageOf(undefined, false)).toBe('decoding: EOF');
    expect(await messageOf({}, false)).toBe('decoding: EOF');
    expect(await messageOf([])).toBe('decoding: the request body must be a JSON object');
    expect(await messageOf(null)).toBe('decoding: the request body must be a JSON object');
    expect(await messageOf({ ipAddress: 1, typeId: 1 })).toBe('decoding: ipAddress must be a string');
    expect(await messageOf({ ipAddress: 1, typeId: 'x' })).toBe('decoding: ipAddress must be a string');
    expect(await messageOf({ ipAddress: '::1', typeId: 'x' })).toBe(
      'decoding: typeId must be a non-negative integer',
    );
    expect(await messageOf({ ipAddress: '::1', typeId: -1 })).toBe(
      'decoding: typeId must be a non-negative integer',
    );
    expect(await messageOf({ ipAddress: '::1', typeId: 2 ** 31 })).toBe(
      'decoding: typeId must be no greater than 2147483647',
    );
    expect(await messageOf({ ipAddress: '::1', typeId: 2 ** 53 + 2 })).toBe(
      'decoding: typeId must be no greater than 2147483647',
    );
    expect(await messageOf({})).toBe('validating: ipAddress: cannot be blank; typeId: cannot be blank.');
    expect(await messageOf({ ipAddress: null, typeId: null })).toBe(
      'validating: ipAddress: cannot be blank; typeId: cannot be blank.',
    );
    expect(await messageOf({ ipAddress: 'nope', typeId: 1 })).toBe(
      'validating: ipAddress: invalid network IP or CIDR-notation subnet.',
    );
    expect(await messageOf({ ipAddress: 'nope', typeId: 0 })).toBe(
      'validating: ipAddress: invalid network IP or CIDR-notation subnet; typeId: cannot be blank.',
    );
    expect(await messageOf({ ipAddress: '::1', typeId: 0 })).toBe('validating: typeId: cannot be blank.');
  });

  it('documents its fields', () => {
    expect(goStructSchema(FederationResolverBodyType)).toEqual({
      type: 'object',
      properties: {
        ipAddress: { type: 'string', description: 'an IPv4 or IPv6 address or network (CIDR)' },
        typeId: { type: 'integer', description: 'a RESOLVE4 or RESOLVE6 type matching the address' },
      },
      required: ['ipAddress', 'typeId'],
    });
  });
});
