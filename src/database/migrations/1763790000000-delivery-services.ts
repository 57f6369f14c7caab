import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, dropTable, idColumn, lastUpdatedColumn } from './support/schema-v1';

const text = (name: string, isNullable = true) => ({ name, type: 'text', isNullable });
const varchar = (name: string, length = 255, isNullable = true) => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable,
});
const int = (name: string, isNullable = true, defaultValue?: number) => ({
  name,
  type: 'integer',
  isNullable,
  ...(defaultValue === undefined ? {} : { default: defaultValue }),
});
const bool = (name: string, defaultValue = false) => ({ name, type: 'boolean', default: defaultValue });

/**
 * Delivery services and what hangs off them: regexes, TLS versions, consistent-hash query
 * parameters, the primary origin, and their server assignments (docs/original-behaviour.md#schema).
 */
export class DeliveryServices1763790000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(queryRunner, {
      name: 'deliveryservice',
      columns: [
        idColumn(),
        varchar('xml_id', 48, false),
        varchar('active', 16, false),
        int('dscp', false),
        varchar('signing_algorithm', 16),
        int('qstring_ignore'),
        int('geo_limit', false, 0),
        varchar('http_bypass_fqdn'),
        varchar('dns_bypass_ip', 64),
        varchar('dns_bypass_ip6', 64),
        int('dns_bypass_ttl'),
        int('type', false),
        int('profile'),
        int('cdn_id', false),
        int('ccr_dns_ttl'),
        int('global_max_mbps'),
        int('global_max_tps'),
        text('long_desc'),
        text('long_desc_1'),
        text('long_desc_2'),
        int('max_dns_answers', true, 5),
        varchar('info_url'),
        { name: 'miss_lat', type: 'double', isNullable: true },
        { name: 'miss_long', type: 'double', isNullable: true },
        varchar('check_path'),
        int('protocol', true, 0),
        int('ssl_key_version', true, 0),
        bool('ipv6_routing_enabled'),
        int('range_request_handling', true, 0),
        text('edge_header_rewrite'),
        varchar('origin_shield', 1024),
        text('mid_header_rewrite'),
        text('regex_remap'),
        varchar('cacheurl', 1024),
        text('remap_text'),
        bool('multi_site_origin'),
        varchar('display_name', 48, false),
        text('tr_response_headers'),
        int('initial_dispersion', true, 1),
        varchar('dns_bypass_cname'),
        text('tr_request_headers'),
        bool('regional_geo_blocking'),
        int('geo_provider', true, 0),
        text('geo_limit_countries'),
        bool('logs_enabled'),
        varchar('geolimit_redirect_url', 1024),
        int('tenant_id', false),
        varchar('routing_name', 48, false),
        varchar('deep_caching_type', 8, false),
        int('fq_pacing_rate', true, 0),
        bool('anonymous_blocking_enabled'),
        varchar('consistent_hash_regex', 1024),
        int('max_origin_connections', true, 0),
        bool('ecs_enabled'),
        int('range_slice_block_size'),
        varchar('topology'),
        text('first_header_rewrite'),
        text('inner_header_rewrite'),
        text('last_header_rewrite'),
        varchar('service_category'),
        int('max_request_header_bytes', false, 0),
        bool('regional'),
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['xml_id']],
      indices: [['cdn_id'], ['tenant_id'], ['type']],
      foreignKeys: [
        { column: 'type', references: 'type', onDelete: 'RESTRICT' },
        { column: 'profile', references: 'profile', onDelete: 'RESTRICT' },
        { column: 'cdn_id', references: 'cdn', onDelete: 'RESTRICT' },
        { column: 'tenant_id', references: 'tenant', onDelete: 'RESTRICT' },
      ],
    });
    await createTable(queryRunner, {
      name: 'deliveryservice_tls_version',
      columns: [idColumn(), int('deliveryservice', false), varchar('tls_version', 16, false)],
      unique: [['deliveryservice', 'tls_version']],
      foreignKeys: [{ column: 'deliveryservice', references: 'deliveryservice', onDelete: 'CASCADE' }],
    });
    await createTable(queryRunner, {
      name: 'deliveryservice_consistent_hash_query_param',
      columns: [idColumn(), int('deliveryservice_id', false), varchar('name', 255, false)],
      unique: [['deliveryservice_id', 'name']],
      foreignKeys: [{ column: 'deliveryservice_id', references: 'deliveryservice', onDelete: 'CASCADE' }],
    });
    await createTable(queryRunner, {
      name: 'regex',
      columns: [idColumn(), text('pattern', false), int('type', false), lastUpdatedColumn(queryRunner)],
      foreignKeys: [{ column: 'type', references: 'type', onDelete: 'RESTRICT' }],
    });
    await createTable(queryRunner, {
      name: 'deliveryservice_regex',
      columns: [idColumn(), int('deliveryservice', false), int('regex', false), int('set_number', true, 0)],
      unique: [['deliveryservice', 'regex']],
      indices: [['regex']],
      foreignKeys: [
        { column: 'deliveryservice', references: 'deliveryservice', onDelete: 'CASCADE' },
        { column: 'regex', references: 'regex', onDelete: 'CASCADE' },
      ],
    });
    await createTable(queryRunner, {
      name: 'origin',
      columns: [
        idColumn(),
        varchar('name', 255, false),
        varchar('fqdn', 255, false),
        varchar('protocol', 5, false),
        bool('is_primary'),
        int('port'),
        int('deliveryservice', false),
        int('tenant', true),
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['name']],
      indices: [['deliveryservice']],
      foreignKeys: [
        { column: 'deliveryservice', references: 'deliveryservice', onDelete: 'CASCADE' },
        { column: 'tenant', references: 'tenant', onDelete: 'RESTRICT' },
      ],
    });
    await createTable(queryRunner, {
      name: 'deliveryservice_server',
      columns: [
        idColumn(),
        int('deliveryservice', false),
        int('server', false),
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['deliveryservice', 'server']],
      indices: [['server']],
      foreignKeys: [
        { column: 'deliveryservice', references: 'deliveryservice', onDelete: 'CASCADE' },
        { column: 'server', references: 'server', onDelete: 'CASCADE' },
      ],
    });
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'deliveryservice_server',
      'origin',
      'deliveryservice_regex',
      'regex',
      'deliveryservice_consistent_hash_query_param',
      'deliveryservice_tls_version',
      'deliveryservice',
    ]) {
      await dropTable(queryRunner, table);
    }
  }
}
