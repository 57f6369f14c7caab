import type { BadRequestException } from '@nestjs/common';
import { parseFederationResolverBody } from './federation-resolver.dto';

const messageOf = (body: unknown, hasBody = true): string => {
  try {
    parseFederationResolverBody(body, hasBody);
  } catch (error) {
    return (error as BadRequestException).message;
  }
  throw new Error('no error');
};

describe('parseFederationResolverBody', () => {
  it('reads the address, its family and the type', () => {
    expect(parseFederationResolverBody({ ipAddress: '192.0.2.0/24', typeId: 3 }, true)).toEqual({
      ipAddress: '192.0.2.0/24',
      typeId: 3,
      family: 4,
    });
    expect(parseFederationResolverBody({ ipAddress: '::1', typeId: 4 }, true).family).toBe(6);
  });

  it('words problems as the original', () => {
    expect(messageOf(undefined, false)).toBe('decoding: EOF');
    expect(messageOf([])).toBe('decoding: the request body must be a JSON object');
    expect(messageOf({ ipAddress: 1, typeId: 1 })).toBe('decoding: ipAddress must be a string');
    expect(messageOf({ ipAddress: '::1', typeId: 'x' })).toBe(
      'decoding: typeId must be a non-negative integer',
    );
    expect(messageOf({ ipAddress: '::1', typeId: 2 ** 31 })).toBe(
      'decoding: typeId must be no greater than 2147483647',
    );
    expect(messageOf({ ipAddress: '::1', typeId: 2 ** 53 + 2 })).toBe(
      'decoding: typeId must be no greater than 2147483647',
    );
    expect(messageOf({})).toBe('validating: ipAddress: cannot be blank; typeId: cannot be blank.');
    expect(messageOf({ ipAddress: 'nope', typeId: 1 })).toBe(
      'validating: ipAddress: invalid network IP or CIDR-notation subnet.',
    );
    expect(messageOf({ ipAddress: '::1', typeId: 0 })).toBe('validating: typeId: cannot be blank.');
  });
});
