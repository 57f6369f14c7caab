import type { InfluxSeries, StatsSummaryFigures } from 'src/modules/stats/influxql';

/** A data series (lib/go-tc TrafficStatsSeries), in its key order; times as the client negotiated. */
export interface TrafficStatsSeries {
  columns: string[];
  count: number;
  name: string;
  tags: Record<string, string> | null;
  values: unknown[][];
}

/** lib/go-tc TrafficStatsSummary. */
export type TrafficStatsSummary = StatsSummaryFigures;

/** lib/go-tc TrafficDSStatsSummary: the summary and the total kilobytes or transactions it implies. */
export interface TrafficDSStatsSummary extends TrafficStatsSummary {
  totalKiloBytes: number | null;
  totalTransactions: number | null;
}

/** GET cache_stats (lib/go-tc TrafficStatsResponse): each part absent when excluded, `series` also without data. */
export interface TrafficStatsResponse {
  series?: TrafficStatsSeries;
  summary?: TrafficStatsSummary;
}

/** GET deliveryservice_stats (lib/go-tc TrafficDSStatsResponse). */
export interface TrafficDSStatsResponse {
  series?: TrafficStatsSeries;
  summary?: TrafficDSStatsSummary;
}

/** The summary the original answers when there is no data: every figure 0. */
export const EMPTY_SUMMARY: TrafficStatsSummary = {
  average: 0,
  count: 0,
  fifthPercentile: 0,
  max: 0,
  min: 0,
  ninetyEighthPercentile: 0,
  ninetyFifthPercentile: 0,
};

/** RFC 3339 in UTC without fractional seconds (Go's time.RFC3339 of a whole-second time). */
function rfc3339(nanoseconds: number): string {
  return new Date(Math.floor(nanoseconds / 1e6)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The series as the original answers it: its rows' first value (the bucket's start, in nanoseconds
 * since the epoch) kept for `timestamp=unix`, else written in RFC 3339; like the original, the
 * conversion stops at the first row that is not a `[time, value]` pair.
 */
export function toTrafficStatsSeries(series: InfluxSeries, unix: boolean): TrafficStatsSeries {
  const values = series.values.map((row) => [...row]);
  if (!unix) {
    for (const row of values) {
      if (row.length !== 2 || typeof row[0] !== 'number') {
        break;
      }
      row[0] = rfc3339(row[0]);
    }
  }
  return { columns: series.columns, count: values.length, name: series.name, tags: series.tags, values };
}

/**
 * The delivery-service summary with its total (trafficstats/deliveryservice.go): count × 60 s ×
 * average, divided by 8 into kilobytes for a `kbps…` metric, else transactions.
 */
export function toDsSummary(summary: TrafficStatsSummary | null, metricType: string): TrafficDSStatsSummary {
  if (summary === null) {
    return { ...EMPTY_SUMMARY, totalKiloBytes: null, totalTransactions: null };
  }
  const total = summary.count * 60 * summary.average;
  return metricType.startsWith('kbps')
    ? { ...summary, totalKiloBytes: total / 8, totalTransactions: null }
    : { ...summary, totalKiloBytes: null, totalTransactions: total };
}
