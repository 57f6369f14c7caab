/** A value of a metric as prom-client's registry reads it. */
export interface SampleValue {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

/** A metric computed when scraped: the registry calls `get()` (and the cluster aggregation sums it). */
export interface ComputedMetric {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  aggregator: 'sum';
  get(): { name: string; help: string; type: string; aggregator: 'sum'; values: SampleValue[] };
}

/** Latency buckets of http_request_duration_seconds, in seconds. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The labels of one request series: every value is from a bounded set (never an id or a raw path). */
export interface SeriesLabels {
  route: string;
  method: string;
  version: string;
  status: string;
}

/** One series' figures: plain numbers, updated in place (no label hashing per request). */
class Series {
  count = 0;
  sum = 0;
  /** Per bucket (not cumulative); the last is +Inf. */
  readonly buckets = new Float64Array(DURATION_BUCKETS.length + 1);

  constructor(readonly labels: SeriesLabels) {}

  observe(seconds: number): void {
    this.count++;
    this.sum += seconds;
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]) {
      i++;
    }
    this.buckets[i]++;
  }
}

/**
 * The request counter and latency histogram per route template, method, API version and status
 * class. A request finds its series by one Map lookup of a key made of those four labels; the
 * figures are turned into prom-client's form only when scraped (`counter()`, `histogram()`, which
 * the registry reads as metrics of their own: `get()`; the cluster aggregation sums them).
 */
export class RouteSeries {
  private readonly series = new Map<string, Series>();

  observe(key: string, labels: () => SeriesLabels, seconds: number): void {
    let series = this.series.get(key);
    if (series === undefined) {
      series = new Series(labels());
      this.series.set(key, series);
    }
    series.observe(seconds);
  }

  /** `http_requests_total`. */
  counter(name: string, help: string): ComputedMetric {
    return {
      name,
      help,
      type: 'counter',
      aggregator: 'sum',
      get: () => ({
        name,
        help,
        type: 'counter',
        aggregator: 'sum',
        values: [...this.series.values()].map((s) => ({ labels: { ...s.labels }, value: s.count })),
      }),
    };
  }

  /** `http_request_duration_seconds` (_bucket cumulative, _sum, _count). */
  histogram(name: string, help: string): ComputedMetric {
    return {
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      get: () => {
        const values: SampleValue[] = [];
        for (const s of this.series.values()) {
          let cumulative = 0;
          DURATION_BUCKETS.forEach((bound, i) => {
            cumulative += s.buckets[i];
            values.push({
              metricName: `${name}_bucket`,
              labels: { ...s.labels, le: bound },
              value: cumulative,
            });
          });
          cumulative += s.buckets[DURATION_BUCKETS.length];
          values.push({
            metricName: `${name}_bucket`,
            labels: { ...s.labels, le: '+Inf' },
            value: cumulative,
          });
          values.push({ metricName: `${name}_sum`, labels: { ...s.labels }, value: s.sum });
          values.push({ metricName: `${name}_count`, labels: { ...s.labels }, value: s.count });
        }
        return { name, help, type: 'histogram', aggregator: 'sum', values };
      },
    };
  }
}
