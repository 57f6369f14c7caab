import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * GET jobs (docs/original-behaviour.md#jobs): the original's filters, each an exact match; `cdn` by
 * the CDN's name. `maxRevalDurationDays` is read by the controller (its presence alone counts).
 */
export const JOB_LIST: ListSpec = {
  fields: {
    id: { column: 'job.id', type: 'int', unique: true },
    assetUrl: { column: 'job.asset_url' },
    startTime: { column: 'job.start_time', filter: false },
    userId: { column: 'job.job_user', type: 'int' },
    createdBy: { column: 'u.username' },
    deliveryService: { column: 'ds.xml_id' },
    dsId: { column: 'job.job_deliveryservice', type: 'int' },
    invalidationType: { column: 'job.invalidation_type', since: '4.0' },
    cdn: {
      column: 'ds.cdn_id',
      filter: true,
      condition: (param) => `ds.cdn_id = (SELECT c.id FROM cdn c WHERE c.name = :${param})`,
    },
  },
  defaultOrder: 'id',
};
