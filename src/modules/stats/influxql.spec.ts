import { toCurrentStats } from './dto/current-stats.response';
import { influxIdentifier, influxString, lastValueStatement, lastValues } from './influxql';

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
