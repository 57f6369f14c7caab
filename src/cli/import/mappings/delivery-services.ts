import { sameColumns, tooLong, type TableMapping } from 'src/cli/import/mapping';

const DS_COLUMNS = [
  'id',
  'xml_id',
  'dscp',
  'qstring_ignore',
  'geo_limit',
  'http_bypass_fqdn',
  'dns_bypass_ip',
  'dns_bypass_ip6',
  'dns_bypass_ttl',
  'type',
  'profile',
  'cdn_id',
  'ccr_dns_ttl',
  'global_max_mbps',
  'global_max_tps',
  'long_desc',
  'long_desc_1',
  'long_desc_2',
  'max_dns_answers',
  'info_url',
  'miss_lat',
  'miss_long',
  'check_path',
  'protocol',
  'ssl_key_version',
  'ipv6_routing_enabled',
  'range_request_handling',
  'edge_header_rewrite',
  'origin_shield',
  'mid_header_rewrite',
  'regex_remap',
  'cacheurl',
  'remap_text',
  'display_name',
  'tr_response_headers',
  'initial_dispersion',
  'dns_bypass_cname',
  'tr_request_headers',
  'regional_geo_blocking',
  'geo_provider',
  'geo_limit_countries',
  'logs_enabled',
  'geolimit_redirect_url',
  'tenant_id',
  'routing_name',
  'fq_pacing_rate',
  'anonymous_blocking_enabled',
  'consistent_hash_regex',
  'max_origin_connections',
  'ecs_enabled',
  'range_slice_block_size',
  'topology',
  'first_header_rewrite',
  'inner_header_rewrite',
  'last_header_rewrite',
  'service_category',
  'max_request_header_bytes',
  'last_updated',
];

/**
 * Delivery services. 7.0 kept `active` as a boolean (8.0 turned true into ACTIVE and false into
 * PRIMED, as here), had no `regional` (false) and allowed a null `multi_site_origin` (false, as 8.0
 * made it) (docs/decisions.md#d190).
 */
export const deliveryServices: TableMapping = {
  table: 'deliveryservice',
  from: ['deliveryservice'],
  select: (v) =>
    `SELECT ${DS_COLUMNS.join(', ')}, COALESCE(multi_site_origin, false) AS multi_site_origin, ` +
    'signing_algorithm::text AS signing_algorithm, ' +
    'deep_caching_type::text AS deep_caching_type, ' +
    (v.release === '7.0'
      ? "CASE WHEN active THEN 'ACTIVE' ELSE 'PRIMED' END AS active, false AS regional"
      : 'active::text AS active, regional') +
    ' FROM deliveryservice ORDER BY id',
  rules: [
    { rule: 'xml_id contains spaces or periods', broken: (row) => /[\s.]/.test(String(row.xml_id)) },
    tooLong('xml_id', 48),
    tooLong('display_name', 48),
  ],
};

export const consistentHashQueryParams: TableMapping = {
  table: 'deliveryservice_consistent_hash_query_param',
  from: ['deliveryservice_consistent_hash_query_param'],
  key: ['deliveryservice_id', 'name'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY deliveryservice_id, name) AS id, deliveryservice_id, name ' +
    'FROM deliveryservice_consistent_hash_query_param ORDER BY deliveryservice_id, name',
};

export const regexes: TableMapping = sameColumns('regex', ['id', 'pattern', 'type', 'last_updated']);

export const deliveryServiceRegexes: TableMapping = {
  table: 'deliveryservice_regex',
  from: ['deliveryservice_regex'],
  key: ['deliveryservice', 'regex'],
  // Traffic Ops keeps no time of a link: it takes its regex's (docs/decisions.md#d228).
  select: () =>
    'SELECT row_number() OVER (ORDER BY dsr.deliveryservice, dsr.set_number, dsr.regex) AS id, ' +
    'dsr.deliveryservice, dsr.regex, dsr.set_number, r.last_updated ' +
    'FROM deliveryservice_regex dsr JOIN regex r ON r.id = dsr.regex ' +
    'ORDER BY dsr.deliveryservice, dsr.set_number, dsr.regex',
};

export const tlsVersions: TableMapping = {
  table: 'deliveryservice_tls_version',
  from: ['deliveryservice_tls_version'],
  key: ['deliveryservice', 'tls_version'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY deliveryservice, tls_version) AS id, deliveryservice, tls_version ' +
    'FROM deliveryservice_tls_version ORDER BY deliveryservice, tls_version',
};

/** 8.0 keeps them in an array column of the delivery service; 7.0 in a table of their own. */
export const requiredCapabilities: TableMapping = {
  table: 'deliveryservices_required_capability',
  from: (v) => [v.release === '7.0' ? 'deliveryservices_required_capability' : 'deliveryservice'],
  key: ['deliveryservice_id', 'required_capability'],
  select: (v) =>
    v.release === '7.0'
      ? 'SELECT deliveryservice_id, required_capability, last_updated FROM deliveryservices_required_capability ' +
        'ORDER BY deliveryservice_id, required_capability'
      : 'SELECT DISTINCT id AS deliveryservice_id, unnest(required_capabilities) AS required_capability, last_updated ' +
        'FROM deliveryservice WHERE required_capabilities IS NOT NULL ORDER BY 1, 2',
};

export const deliveryServiceServers: TableMapping = {
  table: 'deliveryservice_server',
  from: ['deliveryservice_server'],
  key: ['deliveryservice', 'server'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY deliveryservice, server) AS id, deliveryservice, server, last_updated ' +
    'FROM deliveryservice_server ORDER BY deliveryservice, server',
};

export const origins: TableMapping = {
  table: 'origin',
  from: ['origin'],
  select: () =>
    'SELECT id, name, fqdn, protocol::text AS protocol, is_primary, port, deliveryservice, tenant, last_updated, ' +
    'ip_address, ip6_address, cachegroup, coordinate, profile FROM origin ORDER BY id',
};

export const steeringTargets: TableMapping = {
  table: 'steering_target',
  from: ['steering_target'],
  key: ['deliveryservice', 'target'],
  select: () =>
    'SELECT row_number() OVER (ORDER BY deliveryservice, target) AS id, deliveryservice, target, value, type, ' +
    'last_updated FROM steering_target ORDER BY deliveryservice, target',
};

export const staticDnsEntries: TableMapping = sameColumns('staticdnsentry', [
  'id',
  'host',
  'address',
  'type',
  'ttl',
  'deliveryservice',
  'cachegroup',
  'last_updated',
]);
