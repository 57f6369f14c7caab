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
  series?: { columns?: string[]; values?: unknown[][] }[];
}

/**
 * The `last` value of each statement of a multi-statement /query answer, in statement order: null
 * where the statement found no series. A statement that failed, or an answer of another shape,
 * throws (the figures would be wrong, not merely missing).
 */
export function lastValues(body: unknown, statements: number): (number | null)[] {
  const results = (body as { results?: StatementResult[]; error?: string } | null)?.results;
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') {
    throw new Error(`InfluxDB query failed: ${error}`);
  }
  if (!Array.isArray(results)) {
    throw new Error('InfluxDB answered without results');
  }
  const values: (number | null)[] = new Array<number | null>(statements).fill(null);
  results.forEach((result, i) => {
    const index = typeof result.statement_id === 'number' ? result.statement_id : i;
    if (result.error) {
      throw new Error(`InfluxDB query failed: ${result.error}`);
    }
    const series = result.series?.[0];
    if (!series || index < 0 || index >= statements) {
      return;
    }
    const column = series.columns?.indexOf('last') ?? -1;
    const raw = column >= 0 ? series.values?.[0]?.[column] : undefined;
    if (raw === undefined || raw === null) {
      return;
    }
    if (typeof raw !== 'number' || !Number.isFinite(raw)) {
      throw new Error(`InfluxDB answered a value that is not a number: ${JSON.stringify(raw)}`);
    }
    values[index] = raw;
  });
  return values;
}
