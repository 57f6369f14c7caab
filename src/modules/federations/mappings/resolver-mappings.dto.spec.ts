import type { BadRequestException } from '@nestjs/common';
import { collectionOf, readCollection } from 'src/common/validation/body-collections';
import { type ResolverMapping, ResolverMappingsBody } from './resolver-mappings.dto';

const parseResolverMappings = async (body: unknown, present: boolean) => {
  const collection = collectionOf(ResolverMappingsBody);
  if (!collection) {
    throw new Error('ResolverMappingsBody is no collection');
  }
  const read = (await readCollection(body, collection, { present })) as ResolverMapping[];
  return read.map(({ deliveryService, resolve4, resolve6 }) => ({ deliveryService, resolve4, resolve6 }));
};

const messageOf = async (body: unknown, hasBody = true): Promise<string> => {
  try {
    await parseResolverMappings(body, hasBody);
  } catch (error) {
    return (error as BadRequestException).message;
  }
  throw new Error('no error');
};

describe('ResolverMappingsBody', () => {
  const item = { deliveryService: 'ds1', mappings: { resolve4: ['192.0.2.1'], resolve6: ['::1'] } };

  it('reads an array and the legacy object alike', async () => {
    const expected = [{ deliveryService: 'ds1', resolve4: ['192.0.2.1'], resolve6: ['::1'] }];
    expect(await parseResolverMappings([item], true)).toEqual(expected);
    expect(await parseResolverMappings({ federations: [item] }, true)).toEqual(expected);
  });

  it('defaults a missing delivery service and missing resolver lists', async () => {
    expect(await parseResolverMappings([{ mappings: null }], true)).toEqual([
      { deliveryService: '', resolve4: [], resolve6: [] },
    ]);
  });

  it('wants at least one mapping', async () => {
    const text =
      'validating request: must specify at least one Delivery Service/Federation Resolver(s) mapping';
    expect(await messageOf([])).toBe(text);
    expect(await messageOf({})).toBe(text);
    expect(await messageOf({ federations: [] })).toBe(text);
  });

  it('reports every bad address in request order', async () => {
    expect(
      await messageOf([
        { deliveryService: 'a', mappings: { resolve4: ['::1', '1.2.3.4/24', 'x'], resolve6: ['1.2.3.4'] } },
        { deliveryService: 'b', mappings: { resolve6: ['::1/200'] } },
      ]),
    ).toBe(
      'validating request: [ ::1 ] is not a valid ip address., [ x ] is not a valid ip address., ' +
        '[ 1.2.3.4 ] is not a valid ip address., [ ::1/200 ] is not a valid ip address.',
    );
  });

  it('answers shape problems as parsing errors', async () => {
    expect(await messageOf(undefined, false)).toBe('parsing request: unexpected end of JSON input');
    expect(await messageOf('x')).toMatch(/^parsing request: /);
    expect(await messageOf([5])).toBe('parsing request: [0] must be an object');
    expect(await messageOf([{ deliveryService: 5 }])).toBe(
      'parsing request: [0].deliveryService must be a string',
    );
    expect(await messageOf([{ mappings: [] }])).toBe('parsing request: [0].mappings must be an object');
    expect(await messageOf([{ mappings: { resolve4: '1.2.3.4' } }])).toBe(
      'parsing request: [0].mappings.resolve4 must be an array of strings',
    );
    expect(await messageOf({ federations: 'x' })).toBe('parsing request: federations must be an array');
    expect(await messageOf([null])).toBe('parsing request: [0] must be an object');
    expect(await messageOf([{ deliveryService: 'a' }, { mappings: { resolve6: [1] } }])).toBe(
      'parsing request: [1].mappings.resolve6 must be an array of strings',
    );
    expect(await messageOf(5)).toBe(
      'parsing request: the body must be an array of mappings or an object with an array of federations',
    );
  });

  it('reads a null body, null lists and a null delivery service as empty', async () => {
    const text =
      'validating request: must specify at least one Delivery Service/Federation Resolver(s) mapping';
    expect(await messageOf(null)).toBe(text);
    expect(await messageOf({ federations: null })).toBe(text);
    expect(
      await parseResolverMappings([{ deliveryService: null, mappings: { resolve4: null } }], true),
    ).toEqual([{ deliveryService: '', resolve4: [], resolve6: [] }]);
  });
});
