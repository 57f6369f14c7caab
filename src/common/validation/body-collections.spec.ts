import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import { IsString } from 'class-validator';
import { classSchema } from 'src/common/validation/json-schema';
import { ArrayOf, collectionOf, MapOf, readCollection } from './body-collections';
import { GoField } from './go-field';
import { GoDecodeError, GoStruct } from './go-struct';
import { refusalOf } from 'test/support/refusal';

@GoStruct('Item', {
  failure: 'parsing: ',
  withCause: true,
  notAnObject: (path) => `parsing: ${path} must be an object`,
})
class Item {
  @GoField.decoded(
    (value, at) => {
      if (typeof value !== 'string') {
        throw new GoDecodeError(`${at.path} must be a string`);
      }
      return value;
    },
    { type: 'string' },
    { required: true },
  )
  name = '';

  @GoField.decoded(
    (value) => {
      if (value !== null) {
        throw new GoDecodeError('only null');
      }
      return 'was null';
    },
    { type: 'string' },
    { decodesNull: true },
  )
  nullable = 'absent';
}

class Named {
  @IsString({ message: 'must be a string' })
  name!: string;
}

const Items = ArrayOf<Item>(Item, {
  invalid: 'not a list',
  noBody: 'no body',
  wrappedIn: { key: 'items', notAnArray: 'items must be an array' },
  check: (items) => (items.some((item) => item.name === 'bad') ? 'a bad name' : undefined),
  description: 'items',
});
const Ids = ArrayOf<number>(Number, { invalid: 'ids only', nullAsEmpty: true, maxItems: 2 });
const NamedItems = ArrayOf<Named>(Named, { invalid: 'not a list' });
const ByKey = MapOf<Item>(Item, {
  invalid: 'not a map',
  check: (map) => (Object.keys(map).length === 0 ? 'empty' : undefined),
});
const Verbatim = MapOf<Item>(Item, { invalid: 'not a map', verbatim: true });

const read = (type: Type<object>, body: unknown, present = true): Promise<unknown> => {
  const collection = collectionOf(type);
  if (!collection) {
    throw new Error(`${type.name} is no collection`);
  }
  return readCollection(body, collection, { present });
};

const refusal = (type: Type<object>, body: unknown, present = true): Promise<string> =>
  refusalOf(() => read(type, body, present));

describe('ArrayOf', () => {
  it('reads each item with its class, in order, and answers the items', async () => {
    const items = (await read(Items, [{ name: 'a' }, { name: 'b', nullable: null }])) as Item[];
    expect(items.map((item) => [item instanceof Item, item.name, item.nullable])).toEqual([
      [true, 'a', 'absent'],
      [true, 'b', 'was null'],
    ]);
    expect(await read(Items, { items: [{ name: 'c' }] })).toEqual([Object.assign(new Item(), { name: 'c' })]);
    expect(await read(Items, {})).toEqual([]);
  });

  it('names the item by its index in its texts, and stops at the first problem', async () => {
    expect(await refusal(Items, [{ name: 'a' }, { name: 5 }, 7])).toBe('parsing: [1].name must be a string');
    expect(await refusal(Items, [{ name: 'a' }, null])).toBe('parsing: [1] must be an object');
    expect(await refusal(NamedItems, [{ name: 'a' }, { name: 5 }])).toBe("'name' must be a string");
  });

  it('answers the body-level texts: no body, wrong kind, wrapped non-array, then the check', async () => {
    expect(await refusal(Items, {}, false)).toBe('no body');
    expect(await refusal(Items, 'x')).toBe('not a list');
    expect(await refusal(Items, null)).toBe('not a list');
    expect(await refusal(Items, { items: 'x' })).toBe('items must be an array');
    expect(await refusal(NamedItems, { items: [] })).toBe('not a list');
    expect(await refusal(Items, [{ name: 'bad' }, { name: 5 }])).toBe('parsing: [1].name must be a string');
    expect(await refusal(Items, [{ name: 'bad' }])).toBe('a bad name');
  });

  it('reads Number items as ids: integers, then the count, then the column by index', async () => {
    expect(await read(Ids, [1, 2])).toEqual([1, 2]);
    expect(await read(Ids, null)).toEqual([]);
    expect(await refusal(Ids, [1, '2'])).toBe('ids only');
    expect(await refusal(Ids, [2 ** 31, 1, 1.5])).toBe('ids only');
    expect(await refusal(Ids, [2 ** 31, 1, 1])).toBe('the payload must have at most 2 items');
    expect(await refusal(Ids, [1, 2 ** 31])).toBe("'[1]' must be no greater than 2147483647");
  });
});

describe('MapOf', () => {
  it('reads each value with its class under its key', async () => {
    const map = (await read(ByKey, { x: { name: 'a' }, y: {} })) as Record<string, Item>;
    expect(Object.keys(map)).toEqual(['x', 'y']);
    expect([map.x instanceof Item, map.x.name, map.y.name]).toEqual([true, 'a', '']);
  });

  it('answers the body-level text, the value texts naming the key, then the check', async () => {
    expect(await refusal(ByKey, [])).toBe('not a map');
    expect(await refusal(ByKey, null)).toBe('not a map');
    expect(await refusal(ByKey, { x: { name: 'a' }, y: 5 })).toBe('parsing: y must be an object');
    expect(await refusal(ByKey, { x: { name: 1 } })).toBe('parsing: x.name must be a string');
    expect(await refusal(ByKey, {})).toBe('empty');
  });

  it('answers the body as sent when verbatim', async () => {
    const body = { x: { name: 'a', other: 1 } };
    expect(await read(Verbatim, body)).toBe(body);
    expect(await refusal(Verbatim, { x: { name: 2, other: 1 } })).toBe('parsing: x.name must be a string');
  });
});

describe('collection schemas', () => {
  const item = {
    type: 'object',
    properties: { name: { type: 'string' }, nullable: { type: 'string' } },
    required: ['name'],
  };

  it('are an array of the item schema, or an object of additionalProperties', () => {
    expect(classSchema(Items)).toEqual({ type: 'array', description: 'items', items: item });
    expect(classSchema(Ids)).toEqual({ type: 'array', items: { type: 'integer' } });
    expect(classSchema(ByKey)).toEqual({ type: 'object', additionalProperties: item });
    expect(classSchema(NamedItems)).toEqual({
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' } } },
    });
  });

  it('name the class after its item', () => {
    expect([Items.name, ByKey.name]).toEqual(['ArrayOf(Item)', 'MapOf(Item)']);
  });
});
