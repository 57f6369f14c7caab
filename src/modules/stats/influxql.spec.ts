import { toCurrentStats } from './dto/current-stats.response';
import { toDsSummary, toTrafficStatsSeries } from './dto/traffic-stats.response';
import {
  cdnSeriesStatement,
  cdnSummaryStatement,
  dsSeriesStatement,
  dsSummaryStatement,
  influxIdentifier,
  influxString,
  lastValueStatement,
  lastValues,
  readSeries,
  readSummary,
  statementResults,
} from './influxql';

describe('InfluxQL quoting', () => {
  it('escapes quotes, backslashes and line breaks in string literals', () => {
    expect(influxString('plain')).toBe("'plain'");
    expect(influxString("it's")).toBe("'it\\'s'");
    expect(influxString('a\\b')).toBe("'a\\\\b'");
    expect(influxString("x' OR cdn =~ /.*/ --")).toBe("'x\\' OR cdn =~ /.*/ --'");
    expect(influxString('two\nlines')).toBe("'two\\nlines'");
    expect(influxString('say "hi"')).toBe('\'say \\"hi\\"\'');
  });

  it('escapes identifiers', () => {
    expect(influxIdentifier('bandwidth.cdn.1min')).toBe('"bandwidth.cdn.1min"');
    expect(influxIdentifier('a"b')).toBe('"a\\"b"');
  });

  it('builds the original query', () => {
    expect(lastValueStatement('cache_stats', 'bandwidth.cdn.1min', 'cdn1')).toBe(
      `SELECT last(value) FROM "cache_stats"."monthly"."bandwidth.cdn.1min" WHERE cdn = 'cdn1'`,
    );
  });
});

describe('lastValues', () => {
  it('reads the last value of each statement, null where there is no series', () => {
    const body = {
      results: [
        { statement_id: 0, series: [{ name: 'm', columns: ['time', 'last'], values: [['t', 2500000]] }] },
        { statement_id: 1 },
        { statement_id: 2, series: [{ name: 'm', columns: ['time', 'last'], values: [['t', 0.5]] }] },
      ],
    };
    expect(lastValues(body, 3)).toEqual([2500000, null, 0.5]);
  });

  it('throws on a failed statement, a top-level error or another shape', () => {
    expect(() => lastValues({ results: [{ statement_id: 0, error: 'database not found: x' }] }, 1)).toThrow(
      'InfluxDB query failed: database not found: x',
    );
    expect(() => lastValues({ error: 'error parsing query' }, 1)).toThrow(
      'InfluxDB query failed: error parsing query',
    );
    expect(() => lastValues({}, 1)).toThrow('InfluxDB answered without results');
    expect(() =>
      lastValues(
        { results: [{ statement_id: 0, series: [{ columns: ['time', 'last'], values: [['t', 'x']] }] }] },
        1,
      ),
    ).toThrow('not a number');
  });
});

describe('toCurrentStats', () => {
  it('converts to Gbps, takes 85 % of max kbps, and sums what exists', () => {
    expect(
      toCurrentStats([
        { cdn: 'a', kbps: 2500000, connections: 10, maxKbps: 10000000 },
        { cdn: 'b', kbps: null, connections: 5, maxKbps: null },
      ]),
    ).toEqual({
      currentStats: [
        { bandwidth: 2.5, capacity: 8.5, cdn: 'a', connections: 10 },
        { bandwidth: null, capacity: null, cdn: 'b', connections: 5 },
        { bandwidth: 2.5, cdn: 'total', connections: 15 },
      ],
    });
  });

  it('answers null totals when nothing has data', () => {
    expect(
      toCurrentStats([{ cdn: 'ALL', kbps: null, connections: null, maxKbps: null }]).currentStats[1],
    ).toEqual({
      bandwidth: null,
      cdn: 'total',
      connections: null,
    });
  });
});

describe('Traffic Stats statements', () => {
  const cdnSource = { database: 'cache_stats', measurement: 'bandwidth.cdn.1min' };
  const dsSource = { database: 'deliveryservice_stats', measurement: 'kbps.ds.1min' };
  const aggregates =
    'mean(value) AS "average", percentile(value, 5) AS "fifthPercentile", ' +
    'percentile(value, 95) AS "ninetyFifthPercentile", percentile(value, 98) AS "ninetyEighthPercentile", ' +
    'min(value) AS "min", max(value) AS "max", count(value) AS "count"';

  it('builds the original CDN summary and series, the name quoted', () => {
    expect(cdnSummaryStatement(cdnSource, "a'b", 10n, 20n)).toBe(
      `SELECT ${aggregates} FROM "cache_stats"."monthly"."bandwidth.cdn.1min" WHERE cdn = 'a\\'b' AND time < 20 AND time > 10`,
    );
    expect(
      cdnSeriesStatement(cdnSource, 'c', -5n, 20n, {
        interval: '1m',
        offset: '-5s',
        orderByTime: true,
        limit: 3n,
        skip: 1n,
      }),
    ).toBe(
      `SELECT sum(value)/count(value) FROM "cache_stats"."monthly"."bandwidth.cdn.1min" WHERE cdn = 'c'` +
        ` AND time > -5 AND time < 20 GROUP BY time(1m, -5s), "cdn" ORDER BY time LIMIT 3 OFFSET 1`,
    );
  });

  it('builds the original delivery-service summary and series', () => {
    expect(dsSummaryStatement(dsSource, 'ds\\1', 10n, 20n)).toBe(
      `SELECT ${aggregates} FROM "deliveryservice_stats"."monthly"."kbps.ds.1min" WHERE time >= 10` +
        ` AND time <= 20 AND cachegroup = 'total' AND deliveryservice = 'ds\\\\1'`,
    );
    expect(
      dsSeriesStatement(dsSource, 'ds1', 10n, 20n, { interval: '2h', offset: '0s', orderByTime: false }),
    ).toBe(
      `SELECT mean(value) FROM "deliveryservice_stats"."monthly"."kbps.ds.1min" WHERE cachegroup = 'total'` +
        ` AND deliveryservice = 'ds1' AND time >= 10 AND time <= 20 GROUP BY time(2h, 0s), "cachegroup"`,
    );
  });

  it('refuses a bucket that is not a checked duration', () => {
    expect(() =>
      cdnSeriesStatement(cdnSource, 'c', 0n, 1n, {
        interval: '1m; DROP DATABASE x',
        offset: '0s',
        orderByTime: false,
      }),
    ).toThrow('not an InfluxQL duration');
  });
});

describe('Traffic Stats answers', () => {
  const columns = [
    'time',
    'average',
    'fifthPercentile',
    'ninetyFifthPercentile',
    'ninetyEighthPercentile',
    'min',
    'max',
    'count',
  ];

  it('reads a summary, a null fifth percentile as 0, nothing as null', () => {
    const body = {
      results: [{ statement_id: 0, series: [{ name: 'm', columns, values: [[0, 2, null, 3, 3, 1, 3, 2]] }] }],
    };
    expect(readSummary(statementResults(body, 1)[0])).toEqual({
      average: 2,
      count: 2,
      fifthPercentile: 0,
      max: 3,
      min: 1,
      ninetyEighthPercentile: 3,
      ninetyFifthPercentile: 3,
    });
    expect(readSummary(statementResults({ results: [{ statement_id: 0 }] }, 1)[0])).toBeNull();
  });

  it('refuses a summary of another shape', () => {
    const series = (values: unknown[][], cols = columns) => [
      { name: 'm', tags: null, columns: cols, values },
    ];
    expect(() => readSummary(series([[0, null, 1, 1, 1, 1, 1, 1]]))).toThrow(
      "column 'average' is not a number",
    );
    expect(() => readSummary(series([[0, 1, 1, 1, 1, 1, 1]]))).toThrow('Improper number of returned values');
    expect(() => readSummary(series([]))).toThrow('Improper number of returned rows: 0');
    expect(() => readSummary([...series([]), ...series([])])).toThrow('Improper number of series: 2');
    expect(() => statementResults({ results: [{ statement_id: 0, series: [{ columns: 'x' }] }] }, 1)).toThrow(
      'another shape',
    );
  });

  it('writes series times in RFC 3339 unless unix is asked for', () => {
    const body = {
      results: [
        {
          statement_id: 0,
          series: [
            {
              name: 'n',
              tags: { cdn: 'c' },
              columns: ['time', 'mean'],
              values: [
                [1563818100000000000, 1],
                [1563818160000000000, null],
              ],
            },
          ],
        },
      ],
    };
    const series = readSeries(statementResults(body, 1)[0])!;
    expect(toTrafficStatsSeries(series, false)).toEqual({
      columns: ['time', 'mean'],
      count: 2,
      name: 'n',
      tags: { cdn: 'c' },
      values: [
        ['2019-07-22T17:55:00Z', 1],
        ['2019-07-22T17:56:00Z', null],
      ],
    });
    expect(toTrafficStatsSeries(series, true).values[0]).toEqual([1563818100000000000, 1]);
    expect(readSeries([])).toBeNull();
  });

  it('totals a delivery service in kilobytes for kbps, else in transactions', () => {
    const summary = {
      average: 80,
      count: 2,
      fifthPercentile: 0,
      max: 0,
      min: 0,
      ninetyEighthPercentile: 0,
      ninetyFifthPercentile: 0,
    };
    expect(toDsSummary(summary, 'kbps')).toEqual({
      ...summary,
      totalKiloBytes: 1200,
      totalTransactions: null,
    });
    expect(toDsSummary(summary, 'tps_2xx')).toEqual({
      ...summary,
      totalKiloBytes: null,
      totalTransactions: 9600,
    });
    expect(toDsSummary(null, 'kbps')).toEqual({
      average: 0,
      count: 0,
      fifthPercentile: 0,
      max: 0,
      min: 0,
      ninetyEighthPercentile: 0,
      ninetyFifthPercentile: 0,
      totalKiloBytes: null,
      totalTransactions: null,
    });
  });
});
