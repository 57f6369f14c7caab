import { BadRequestException } from '@nestjs/common';
import { type ListSpec, NO_MATCH, parseListQuery } from 'src/common/list-query/list-query';
import { ApiVersion } from 'src/common/versioning/api-version';

const SPEC: ListSpec = {
  fields: {
    id: { column: 't.id', type: 'int' },
    name: { column: 't.name' },
    active: { column: 't.active', type: 'bool' },
    extra: { column: 't.extra', type: 'int', since: '4.1' },
    big: { column: 't.big', type: 'bigint' },
    lastUpdated: { column: 't.last_updated', filter: false },
  },
  defaultOrder: 'name',
};
const V40 = new ApiVersion(4, 0);
const V41 = new ApiVersion(4, 1);

describe('parseListQuery', () => {
  it('orders by the default field, ascending, with the id as tiebreak', () => {
    expect(parseListQuery(SPEC, {}, V40)).toEqual({
      filters: [],
      order: { column: 't.name', direction: 'ASC' },
      tiebreak: 't.id',
    });
  });

  it('maps filters to columns and parses their values', () => {
    const query = parseListQuery(
      SPEC,
      { id: '7', name: 'x', active: 'false', unknown: 'y', lastUpdated: 'z' },
      V40,
    );
    expect(query.filters).toEqual([
      { column: 't.id', value: 7, condition: undefined },
      { column: 't.name', value: 'x', condition: undefined },
      { column: 't.active', value: false, condition: undefined },
    ]);
  });

  it('knows versioned fields only from their version on', () => {
    expect(parseListQuery(SPEC, { extra: '3' }, V40).filters).toEqual([]);
    expect(parseListQuery(SPEC, { extra: '3' }, V41).filters).toEqual([
      { column: 't.extra', value: 3, condition: undefined },
    ]);
  });

  it('rejects values that do not parse', () => {
    expect(() => parseListQuery(SPEC, { id: '1.5' }, V40)).toThrow(
      new BadRequestException('id cannot parse to integer'),
    );
    expect(() => parseListQuery(SPEC, { active: 'maybe' }, V40)).toThrow('active cannot parse to boolean');
  });

  it('orders by known fields only, never by anything else', () => {
    expect(parseListQuery(SPEC, { orderby: 'lastUpdated', sortOrder: 'desc' }, V40).order).toEqual({
      column: 't.last_updated',
      direction: 'DESC',
    });
    expect(parseListQuery(SPEC, { orderby: 't.id; DROP TABLE t', sortOrder: 'sideways' }, V40).order).toEqual(
      {
        column: 't.name',
        direction: 'ASC',
      },
    );
    expect(parseListQuery(SPEC, { orderby: 'constructor' }, V40).order.column).toBe('t.name');
  });

  it('pages by limit with offset, or by page when there is no offset', () => {
    expect(parseListQuery(SPEC, { limit: '10' }, V40)).toMatchObject({ limit: 10 });
    expect(parseListQuery(SPEC, { limit: '10', offset: '5', page: '3' }, V40)).toMatchObject({
      limit: 10,
      offset: 5,
    });
    expect(parseListQuery(SPEC, { limit: '10', page: '3' }, V40)).toMatchObject({ limit: 10, offset: 20 });
    expect(parseListQuery(SPEC, { limit: '-1', page: '3' }, V40)).not.toHaveProperty('limit');
    expect(parseListQuery(SPEC, { offset: '5', page: '2' }, V40)).not.toHaveProperty('offset');
  });

  it.each([
    [{ limit: '-2' }, 'limit parameter must be bigger than -1'],
    [{ limit: 'ten' }, 'limit parameter must be bigger than -1'],
    [{ limit: '1', offset: '0' }, 'offset parameter must be a positive integer'],
    [{ limit: '1', page: '0' }, 'page parameter must be a positive integer'],
    [{ limit: '1', page: '-1' }, 'page parameter must be a positive integer'],
    [{ limit: '99999999999999999999' }, 'limit parameter must be no greater than 2147483647'],
    [{ limit: '2147483648' }, 'limit parameter must be no greater than 2147483647'],
    [{ limit: '-99999999999999999999' }, 'limit parameter must be bigger than -1'],
    [{ limit: '1e3' }, 'limit parameter must be bigger than -1'],
    [{ limit: '1', offset: '99999999999999999999' }, 'offset parameter must be no greater than 2147483647'],
    [{ limit: '1', page: '99999999999999999999' }, 'page parameter must be no greater than 2147483648'],
    [{ limit: '1000', page: '2147485' }, 'page parameter must be no greater than 2147484'],
    [{ id: '1.5' }, 'id cannot parse to integer'],
    [{ id: 'ten' }, 'id cannot parse to integer'],
  ])('rejects %p', (query, text) => {
    expect(() => parseListQuery(SPEC, query, V40)).toThrow(new BadRequestException(text));
  });

  it.each([
    [{ id: '2147483648' }],
    [{ id: '-2147483649' }],
    [{ id: '99999999999999999999' }],
    [{ big: '9007199254740992' }],
    [{ big: '-9007199254740992' }],
  ])('a filter value beyond its column matches nothing, its value not bound: %p', (query) => {
    const [filter] = parseListQuery(SPEC, query, V40).filters;
    expect(filter.condition).toBe(NO_MATCH);
    expect(filter.value).toBe(0);
  });

  it('accepts the bounds themselves', () => {
    expect(parseListQuery(SPEC, { limit: '2147483647', offset: '2147483647' }, V40)).toMatchObject({
      limit: 2147483647,
      offset: 2147483647,
    });
    expect(parseListQuery(SPEC, { limit: '1000', page: '2147484' }, V40)).toMatchObject({
      offset: 2147483000,
    });
    expect(parseListQuery(SPEC, { limit: '0', page: '2147483647' }, V40)).toMatchObject({
      limit: 0,
      offset: 0,
    });
    expect(
      parseListQuery(SPEC, { id: '-2147483648', big: '9007199254740991' }, V40).filters.map((f) => f.value),
    ).toEqual([-2147483648, 9007199254740991]);
    expect(parseListQuery(SPEC, { id: '0002147483647' }, V40).filters[0].value).toBe(2147483647);
  });

  it('takes the first of repeated parameters', () => {
    expect(parseListQuery(SPEC, { id: ['1', '2'] }, V40).filters).toEqual([
      { column: 't.id', value: 1, condition: undefined },
    ]);
  });
});

describe('ordering by a unique field', () => {
  it('needs no tiebreak, so a unique index can serve the order', () => {
    const spec: ListSpec = {
      fields: { id: { column: 't.id' }, code: { column: 't.code', unique: true } },
      defaultOrder: 'code',
    };
    expect(parseListQuery(spec, {}, V40)).toMatchObject({ order: { column: 't.code' }, tiebreak: undefined });
  });
});
