import type { ListSpec } from 'src/common/list-query/list-query';

/** Filters and orderable fields of GET stats_summary (the original filters by these three names). */
export const STATS_SUMMARY_LIST: ListSpec = {
  fields: {
    id: { column: 'ss.id', type: 'int', filter: false, unique: true },
    cdnName: { column: 'ss.cdn_name' },
    deliveryServiceName: { column: 'ss.deliveryservice_name' },
    statName: { column: 'ss.stat_name' },
    statValue: { column: 'ss.stat_value', filter: false },
    summaryTime: { column: 'ss.summary_time', filter: false },
    statDate: { column: 'ss.stat_date', filter: false },
  },
  defaultOrder: 'id',
};
