/**
 * InfluxQL quoting. String literals are single-quoted and identifiers double-quoted; inside both,
 * InfluxQL's scanner reads `\\`, `\'`, `\"` and `\n` as escapes, and an unescaped line break ends
 * the statement with an error, so these four are escaped and nothing else needs to be.
 */
function escape(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

export function influxString(value: string): string {
  return `'${escape(value)}'`;
}

export function influxIdentifier(name: string): string {
  return `"${escape(name)}"`;
}

/** The original's per-CDN query (traffic_ops_golang/trafficstats/cdn.go), with the name quoted. */
export function lastValueStatement(database: string, measurement: string, cdn: string): string {
  return (
    `SELECT last(value) FROM ${influxIdentifier(database)}.${influxIdentifier('monthly')}.` +
    `${influxIdentifier(measurement)} WHERE cdn = ${influxString(cdn)}`
  );
}

interface StatementResult {
  statement_id?: number;
  error?: string;
  series?: unknown[];
}

/**
 * The `last` value of each statement of a multi-statement /query answer, in statement order: null
 * where the statement found no series. A statement that failed, or an answer of another shape,
 * throws (the figures would be wrong, not merely missing).
 */
export function lastValues(body: unknown, statements: number): (number | null)[] {
  return statementResults(body, statements).map((series) => {
    const first = series[0];
    if (!first) {
      return null;
    }
    const column = first.columns.indexOf('last');
    const raw = column >= 0 ? first.values[0]?.[column] : undefined;
    if (raw === undefined || raw === null) {
      return null;
    }
    if (typeof raw !== 'number' || !Number.isFinite(raw)) {
      throw new Error(`InfluxDB answered a value that is not a number: ${JSON.stringify(raw)}`);
    }
    return raw;
  });
}

/** The aggregates of a Traffic Stats summary, each named for its key of the answer. */
const SUMMARY_AGGREGATES =
  'mean(value) AS "average", percentile(value, 5) AS "fifthPercentile", ' +
  'percentile(value, 95) AS "ninetyFifthPercentile", percentile(value, 98) AS "ninetyEighthPercentile", ' +
  'min(value) AS "min", max(value) AS "max", count(value) AS "count"';

/** What a summary or series statement selects from: a measurement of the `monthly` retention policy. */
export interface StatsSource {
  database: string;
  measurement: string;
}

/** The series' time buckets and the original's optional ORDER BY, LIMIT and OFFSET. */
export interface SeriesShape {
  /** An InfluxQL duration literal, already checked (`^\d+[mhdw]$`). */
  interval: string;
  /** A whole number of seconds with its unit, computed (`-30s`). */
  offset: string;
  orderByTime: boolean;
  limit?: bigint;
  skip?: bigint;
}

const from = (source: StatsSource): string =>
  `${influxIdentifier(source.database)}.${influxIdentifier('monthly')}.${influxIdentifier(source.measurement)}`;

/** `GROUP BY time(…), <tag>` and the clauses after it; every part is a checked literal or a number. */
function groupBy(tag: string, shape: SeriesShape): string {
  if (!/^\d+[mhdw]$/.test(shape.interval) || !/^-?\d+s$/.test(shape.offset)) {
    throw new Error(`not an InfluxQL duration: ${shape.interval}, ${shape.offset}`);
  }
  let clauses = ` GROUP BY time(${shape.interval}, ${shape.offset}), ${influxIdentifier(tag)}`;
  if (shape.orderByTime) {
    clauses += ' ORDER BY time';
  }
  if (shape.limit !== undefined) {
    clauses += ` LIMIT ${shape.limit.toString()}`;
  }
  if (shape.skip !== undefined) {
    clauses += ` OFFSET ${shape.skip.toString()}`;
  }
  return clauses;
}

/**
 * The original's CDN summary and series (trafficstats/cache.go): a CDN's samples strictly between
 * the two times (nanoseconds since the epoch, written as integer literals), the series averaged per
 * bucket as `sum/count`.
 */
export function cdnSummaryStatement(source: StatsSource, cdn: string, start: bigint, end: bigint): string {
  return (
    `SELECT ${SUMMARY_AGGREGATES} FROM ${from(source)} WHERE cdn = ${influxString(cdn)}` +
    ` AND time < ${end.toString()} AND time > ${start.toString()}`
  );
}

export function cdnSeriesStatement(
  source: StatsSource,
  cdn: string,
  start: bigint,
  end: bigint,
  shape: SeriesShape,
): string {
  return (
    `SELECT sum(value)/count(value) FROM ${from(source)} WHERE cdn = ${influxString(cdn)}` +
    ` AND time > ${start.toString()} AND time < ${end.toString()}${groupBy('cdn', shape)}`
  );
}

/**
 * The original's delivery-service summary and series (trafficstats/deliveryservice.go): the
 * `total` cache group of a delivery service, both times included, the series as `mean` per bucket.
 */
export function dsSummaryStatement(source: StatsSource, xmlId: string, start: bigint, end: bigint): string {
  return (
    `SELECT ${SUMMARY_AGGREGATES} FROM ${from(source)} WHERE time >= ${start.toString()}` +
    ` AND time <= ${end.toString()} AND cachegroup = 'total' AND deliveryservice = ${influxString(xmlId)}`
  );
}

export function dsSeriesStatement(
  source: StatsSource,
  xmlId: string,
  start: bigint,
  end: bigint,
  shape: SeriesShape,
): string {
  return (
    `SELECT mean(value) FROM ${from(source)} WHERE cachegroup = 'total'` +
    ` AND deliveryservice = ${influxString(xmlId)} AND time >= ${start.toString()}` +
    ` AND time <= ${end.toString()}${groupBy('cachegroup', shape)}`
  );
}

/** One series of an InfluxDB answer, as it sends it. */
export interface InfluxSeries {
  name: string;
  tags: Record<string, string> | null;
  columns: string[];
  values: unknown[][];
}

/**
 * The results of a multi-statement /query answer in statement order; a top-level error, a failed
 * statement or an answer of another shape throws.
 */
export function statementResults(body: unknown, statements: number): InfluxSeries[][] {
  const results = (body as { results?: StatementResult[] } | null)?.results;
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') {
    throw new Error(`InfluxDB query failed: ${error}`);
  }
  if (!Array.isArray(results)) {
    throw new Error('InfluxDB answered without results');
  }
  const out: InfluxSeries[][] = Array.from({ length: statements }, () => []);
  results.forEach((result, i) => {
    const index = typeof result.statement_id === 'number' ? result.statement_id : i;
    if (result.error) {
      throw new Error(`InfluxDB query failed: ${result.error}`);
    }
    if (index < 0 || index >= statements) {
      return;
    }
    out[index] = (result.series ?? []).map((s) => {
      const raw = s as { name?: unknown; tags?: unknown; columns?: unknown; values?: unknown };
      if (!Array.isArray(raw.columns) || (raw.values !== undefined && !Array.isArray(raw.values))) {
        throw new Error('InfluxDB answered a series of another shape');
      }
      return {
        name: typeof raw.name === 'string' ? raw.name : '',
        tags: typeof raw.tags === 'object' && raw.tags !== null ? (raw.tags as Record<string, string>) : null,
        columns: raw.columns as string[],
        values: ((raw.values ?? []) as unknown[]).map((row) => {
          if (!Array.isArray(row)) {
            throw new Error('InfluxDB answered a row that is not an array');
          }
          return row as unknown[];
        }),
      };
    });
  });
  return out;
}

/** The summary figures (lib/go-tc TrafficStatsSummary), in its key order. */
export interface StatsSummaryFigures {
  average: number;
  count: number;
  fifthPercentile: number;
  max: number;
  min: number;
  ninetyEighthPercentile: number;
  ninetyFifthPercentile: number;
}

/**
 * The summary statement's one row (time and the seven aggregates), or null when there was no data;
 * only `fifthPercentile` may be null (too few samples), and is then 0, as the original reads it.
 */
export function readSummary(series: InfluxSeries[]): StatsSummaryFigures | null {
  if (series.length === 0) {
    return null;
  }
  if (series.length !== 1) {
    throw new Error(`Improper number of series: ${series.length}`);
  }
  const [only] = series;
  if (only.values.length !== 1) {
    throw new Error(`Improper number of returned rows: ${only.values.length}`);
  }
  const row = only.values[0];
  if (row.length !== 8 || only.columns.length !== 8) {
    throw new Error(`Improper number of returned values in row: ${row.length} (${only.columns.length} cols)`);
  }
  const value = (column: string): number => {
    const index = only.columns.indexOf(column);
    if (index < 0) {
      throw new Error(`response has no value for column ${column}`);
    }
    const raw = row[index];
    if (raw === null && column === 'fifthPercentile') {
      return 0;
    }
    if (typeof raw !== 'number' || !Number.isFinite(raw)) {
      throw new Error(`column '${column}' is not a number: ${JSON.stringify(raw)}`);
    }
    return raw;
  };
  return {
    average: value('average'),
    count: Math.trunc(value('count')),
    fifthPercentile: value('fifthPercentile'),
    max: value('max'),
    min: value('min'),
    ninetyEighthPercentile: value('ninetyEighthPercentile'),
    ninetyFifthPercentile: value('ninetyFifthPercentile'),
  };
}

/** The series statement's one series, or null when there was no data (the original omits it then). */
export function readSeries(series: InfluxSeries[]): InfluxSeries | null {
  if (series.length === 0) {
    return null;
  }
  if (series.length !== 1) {
    throw new Error(`Improper number of series: ${series.length}`);
  }
  return series[0];
}
