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

/**
 * A request's delivery service (a jsonb column) of a 7.0 database as 8.0's migrations rewrote it:
 * `active` true becomes "ACTIVE" and false "PRIMED", `regional` and `multiSiteOrigin` are false where
 * missing or null, and `lastUpdated` goes from the '… +00' form to RFC 3339 (docs/decisions.md#d190).
 */
function as8(column: string): string {
  const field = (name: string) => `${column} ->> '${name}'`;
  return (
    `(${column}` +
    ` || (CASE ${field('active')} WHEN 'true' THEN '{"active": "ACTIVE"}' WHEN 'false' THEN '{"active": "PRIMED"}' ELSE '{}' END)::jsonb` +
    ` || (CASE WHEN ${field('regional')} IS NULL THEN '{"regional": false}' ELSE '{}' END)::jsonb` +
    ` || (CASE WHEN ${field('multiSiteOrigin')} IS NULL THEN '{"multiSiteOrigin": false}' ELSE '{}' END)::jsonb` +
    ` || (CASE WHEN ${field('lastUpdated')} IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('lastUpdated', ` +
    `replace(replace(${field('lastUpdated')}, ' ', 'T'), '+00', 'Z')) END))::text`
  );
}

/**
 * Requests carry the delivery service they change as JSON; its xmlId and tenant are columns here. A
 * 7.0 request's delivery services are copied as 8.0 would have them (`as8`).
 */
export const deliveryServiceRequests: TableMapping = {
  table: 'deliveryservice_request',
  from: ['deliveryservice_request'],
  select: (v) =>
    'SELECT id, assignee_id, author_id, change_type::text AS change_type, created_at, last_edited_by_id, ' +
    (v.release === '7.0'
      ? `${as8('deliveryservice')} AS deliveryservice, ${as8('original')} AS original, `
      : 'deliveryservice::text AS deliveryservice, original::text AS original, ') +
    'status::text AS status, ' +
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
