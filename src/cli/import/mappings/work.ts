import { sameColumns, tooLong, type TableMapping } from 'src/cli/import/mapping';

export const jobs: TableMapping = sameColumns('job', [
  'id',
  'ttl_hr',
  'asset_url',
  'start_time',
  'entered_time',
  'job_user',
  'job_deliveryservice',
  'invalidation_type',
  'last_updated',
]);

/** Requests carry the delivery service they change as JSON; its xmlId and tenant are columns here. */
export const deliveryServiceRequests: TableMapping = {
  table: 'deliveryservice_request',
  from: ['deliveryservice_request'],
  select: () =>
    'SELECT id, assignee_id, author_id, change_type::text AS change_type, created_at, last_edited_by_id, ' +
    'deliveryservice::text AS deliveryservice, original::text AS original, status::text AS status, ' +
    "COALESCE(deliveryservice, original) ->> 'xmlId' AS xml_id, " +
    "(COALESCE(deliveryservice, original) ->> 'tenantId')::bigint AS tenant_id, last_updated " +
    'FROM deliveryservice_request ORDER BY id',
  rules: [{ rule: 'request without an xmlId', broken: (row) => row.xml_id === null }, tooLong('xml_id', 48)],
};

export const deliveryServiceRequestComments: TableMapping = sameColumns('deliveryservice_request_comment', [
  'id',
  'author_id',
  'deliveryservice_request_id',
  'value',
  'last_updated',
]);

/** The change log. */
export const changeLog: TableMapping = sameColumns('log', [
  'id',
  'level',
  'message',
  'tm_user',
  'ticketnum',
  'last_updated',
]);
