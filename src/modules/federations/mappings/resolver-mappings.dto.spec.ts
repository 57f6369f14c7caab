import type { BadRequestException } from '@nestjs/common';
import { parseResolverMappings } from './resolver-mappings.dto';

const messageOf = (body: unknown, hasBody = true): string => {
  try {
    parseResolverMappings(body, hasBody);
  } catch (error) {
    return (error as BadRequestException).message;
  }
  throw new Error('no error');
};

describe('parseResolverMappings', () => {
  const item = { deliveryService: 'ds1', mappings: { resolve4: ['192.0.2.1'], resolve6: ['::1'] } };

  it('reads an array and the legacy object alike', () => {
    const expected = [{ deliveryService: 'ds1', resolve4: ['192.0.2.1'], resolve6: ['::1'] }];
    expect(parseResolverMappings([item], true)).toEqual(expected);
    expect(parseResolverMappings({ federations: [item] }, true)).toEqual(expected);
  });

  it('defaults a missing delivery service and missing resolver lists', () => {
    expect(parseResolverMappings([{ mappings: null }], true)).toEqual([
      { deliveryService: '', resolve4: [], resolve6: [] },
    ]);
  });

  it('wants at least one mapping', () => {
    const text =
      'validating request: must specify at least one Delivery Service/Federation Resolver(s) mapping';
    expect(messageOf([])).toBe(text);
    expect(messageOf({})).toBe(text);
    expect(messageOf({ federations: [] })).toBe(text);
  });

  it('reports every bad address in request order', () => {
    expect(
      messageOf([
        { deliveryService: 'a', mappings: { resolve4: ['::1', '1.2.3.4/24', 'x'], resolve6: ['1.2.3.4'] } },
        { deliveryService: 'b', mappings: { resolve6: ['::1/200'] } },
      ]),
    ).toBe(
      'validating request: [ ::1 ] is not a valid ip address., [ x ] is not a valid ip address., ' +
        '[ 1.2.3.4 ] is not a valid ip address., [ ::1/200 ] is not a valid ip address.',
    );
  });

  it('answers shape problems as parsing errors', () => {
    expect(messageOf(undefined, false)).toBe('parsing request: unexpected end of JSON input');
    expect(messageOf('x')).toMatch(/^parsing request: /);
    expect(messageOf([5])).toBe('parsing request: [0] must be an object');
    expect(messageOf([{ deliveryService: 5 }])).toBe('parsing request: [0].deliveryService must be a string');
    expect(messageOf([{ mappings: [] }])).toBe('parsing request: [0].mappings must be an object');
    expect(messageOf([{ mappings: { resolve4: '1.2.3.4' } }])).toBe(
      'parsing request: [0].mappings.resolve4 must be an array of strings',
    );
    expect(messageOf({ federations: 'x' })).toBe('parsing request: federations must be an array');
  });
});
