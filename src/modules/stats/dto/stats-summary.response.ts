import { byVersion, rfc3339 } from 'src/common/wire/by-version';
import type { StatsSummary } from 'src/modules/stats/stats-summary.entity';

/** lib/go-tc StatsSummary (API 3.x and 4.x): `summaryTime` as `YYYY-MM-DD HH:MM:SS+00`. */
export interface StatsSummaryV3 {
  statDate: string | null;
  summaryTime: Date;
  cdnName: string;
  deliveryServiceName: string;
  statName: string;
  statValue: number;
}

/** lib/go-tc StatsSummaryV5: `summaryTime` in RFC 3339. */
export interface StatsSummaryV5 extends Omit<StatsSummaryV3, 'summaryTime'> {
  summaryTime: string;
}

const common = (row: StatsSummary) => ({
  cdnName: row.cdnName,
  deliveryServiceName: row.deliveryServiceName,
  statName: row.statName,
  statValue: row.statValue,
});

export const toStatsSummaryResponse = byVersion<StatsSummary, StatsSummaryV3 | StatsSummaryV5>({
  '3.0': (row): StatsSummaryV3 => ({ statDate: row.statDate, summaryTime: row.summaryTime, ...common(row) }),
  '5.0': (row): StatsSummaryV5 => ({
    statDate: row.statDate,
    summaryTime: rfc3339(row.summaryTime),
    ...common(row),
  }),
});

/** `GET stats_summary?lastSummaryDate=…`: the newest summary's time, or null. */
export const toLastSummaryDate = byVersion<Date | null, { summaryTime: Date | string | null }>({
  '3.0': (date) => ({ summaryTime: date }),
  '5.0': (date) => ({ summaryTime: rfc3339(date) }),
});
