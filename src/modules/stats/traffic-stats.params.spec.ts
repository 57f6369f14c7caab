import { BadRequestException, NotAcceptableException } from '@nestjs/common';
import {
  negotiateTimestamps,
  parseStatsTime,
  parseTrafficStatsQuery,
  queryParams,
  requireParams,
} from './traffic-stats.params';

const NS = 1000000000n;

describe('queryParams', () => {
  it('strips a trailing .json', () => {
    expect(queryParams({ a: 'x', b: 'cdn.json', c: '.json', d: undefined })).toEqual({
      a: 'x',
      b: 'cdn',
      c: '',
    });
  });
});

describe('requireParams', () => {
  it('names the missing ones in the given order', () => {
    expect(() => requireParams({ b: '' }, ['a', 'b', 'c'])).toThrow(
      new BadRequestException('required parameters missing: missing required parameters: a, c'),
    );
    expect(() => requireParams({ a: '1' }, ['a'])).not.toThrow();
  });
});

describe('parseStatsTime', () => {
  it('reads RFC 3339 with or without fractions and offsets', () => {
    expect(parseStatsTime('2019-07-22T17:55:00Z')).toBe(1563818100n * NS);
    expect(parseStatsTime('2019-07-22T17:55:00.5Z')).toBe(1563818100n * NS + 500000000n);
    expect(parseStatsTime('2019-07-22T17:55:00.1234567891Z')).toBe(1563818100n * NS + 123456789n);
    expect(parseStatsTime('2019-07-22T11:25:00-06:30')).toBe(1563818100n * NS);
    expect(parseStatsTime('2019-07-22T7:55:00+00:00')).toBe(1563782100n * NS);
    expect(parseStatsTime('1969-12-31T23:59:59Z')).toBe(-NS);
  });

  it('reads nanoseconds and the Traffic Ops form', () => {
    expect(parseStatsTime('1563818100000000001')).toBe(1563818100000000001n);
    expect(parseStatsTime('+7')).toBe(7n);
    expect(parseStatsTime('-7')).toBe(-7n);
    expect(parseStatsTime('2019-07-22 19:55:00+02')).toBe(1563818100n * NS);
  });

  it('refuses other forms, impossible dates and times InfluxDB cannot hold', () => {
    for (const bad of [
      '',
      'now',
      '2019-07-22',
      '2019-07-22T17:55Z',
      '2019-07-22t17:55:00z',
      '2019-13-01T00:00:00Z',
      '2019-02-29T00:00:00Z',
      '2019-04-31T00:00:00Z',
      '2019-07-00T00:00:00Z',
      '2019-07-22T17:60:00Z',
      '2019-07-22T17:55:60Z',
      '2019-07-22T17:55:00+24:00',
      '2019-07-22 17:55:00',
      '1e9',
      '9223372036854775807',
      '-9223372036854775808',
      '1600-01-01T00:00:00Z',
    ]) {
      expect({ bad, ns: parseStatsTime(bad) }).toEqual({ bad, ns: undefined });
    }
    expect(parseStatsTime('2020-02-29T00:00:00Z')).toBe(1582934400n * NS);
    expect(parseStatsTime('9223372036854775806')).toBe(9223372036854775806n);
  });
});

describe('parseTrafficStatsQuery', () => {
  const base = { startDate: '2019-07-22T17:55:30Z', endDate: '2019-07-22T18:55:00Z' };

  it('defaults to one-minute buckets offset by the start, both parts, RFC 3339', () => {
    expect(parseTrafficStatsQuery(base, undefined)).toEqual({
      start: 1563818130n * NS,
      end: 1563821700n * NS,
      interval: '1m',
      groupOffset: '30s',
      limit: undefined,
      offset: undefined,
      orderByTime: false,
      excludeSeries: false,
      excludeSummary: false,
      unix: false,
    });
  });

  it('reads the options', () => {
    const query = parseTrafficStatsQuery(
      { ...base, interval: '1h', limit: '10', offset: '0', orderby: 'time', exclude: 'summary' },
      'application/json;timestamp=unix',
    );
    expect(query).toEqual(
      expect.objectContaining({
        interval: '1h',
        groupOffset: `${1563818130 % 3600}s`,
        limit: 10n,
        offset: 0n,
        orderByTime: true,
        excludeSummary: true,
        unix: true,
      }),
    );
  });

  it('computes a negative offset before the epoch, as Go does', () => {
    expect(parseTrafficStatsQuery({ ...base, startDate: '-90000000000' }, '').groupOffset).toBe('-30s');
  });

  it('checks in the original order', () => {
    const all = { ...base, limit: 'x', offset: 'x', orderby: 'x', interval: 'x', exclude: 'x' };
    expect(() => parseTrafficStatsQuery(all, 'text/html')).toThrow(NotAcceptableException);
    expect(() => parseTrafficStatsQuery(all, undefined)).toThrow('Invalid limit!');
    expect(() => parseTrafficStatsQuery({ ...all, limit: '1' }, undefined)).toThrow('Invalid offset!');
    expect(() => parseTrafficStatsQuery({ ...all, limit: '1', offset: '1' }, undefined)).toThrow(
      "Invalid orderby! Can only be 'time'",
    );
  });
});

describe('negotiateTimestamps', () => {
  it('defaults to RFC 3339', () => {
    for (const accept of [
      undefined,
      '',
      '*/*',
      'application/json',
      'application/*',
      'application/json; q=0.1',
    ]) {
      expect({ accept, unix: negotiateTimestamps(accept) }).toEqual({ accept, unix: false });
    }
  });

  it('honours the quality and the specificity of the ranges', () => {
    expect(negotiateTimestamps('application/json;timestamp=unix')).toBe(true);
    expect(negotiateTimestamps('application/json; timestamp="unix"')).toBe(true);
    expect(
      negotiateTimestamps(
        'application/json;timestamp=unix, application/json;timestamp=rfc;q=0.9, application/json;q=0.8, */*;q=0.7',
      ),
    ).toBe(true);
    expect(negotiateTimestamps('application/json;timestamp=unix;q=0.5, application/json;timestamp=rfc')).toBe(
      false,
    );
    expect(negotiateTimestamps('*/*, application/json;timestamp=unix')).toBe(true);
    // Equal ranks come out reversed from the original's sort.
    expect(negotiateTimestamps('application/json;timestamp=unix, application/json;timestamp=rfc')).toBe(
      false,
    );
    expect(negotiateTimestamps('application/json;timestamp=rfc, application/json;timestamp=unix')).toBe(true);
  });

  it('ignores a header it cannot parse', () => {
    for (const accept of [
      'text/html;;q=1',
      'text/html/x',
      'application/json;timestamp',
      'a/b;x=1;x=2',
      '/json',
    ]) {
      expect({ accept, unix: negotiateTimestamps(accept) }).toEqual({ accept, unix: false });
    }
  });

  it('answers 406 when neither form is acceptable', () => {
    for (const accept of ['text/html', 'application/xml, text/*', 'application/json;timestamp=iso', 'json']) {
      expect(() => negotiateTimestamps(accept)).toThrow(
        `Failed to negotiate content; cannot produce output satisfying ${accept}`,
      );
    }
  });
});
