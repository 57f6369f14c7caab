import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, dropTable, idColumn, lastUpdatedColumn, timestampColumn } from './support/schema-v1';

const varchar = (name: string, length = 255, isNullable = false) => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable,
});

/**
 * Divisions, regions, physical locations, cache groups and their ASNs, profiles and parameters,
 * servers with their interfaces and IP addresses (docs/original-behaviour.md#schema).
 */
export class TopologyAndProfiles1763780000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(queryRunner, {
      name: 'division',
      columns: [idColumn(), varchar('name'), lastUpdatedColumn(queryRunner)],
      unique: [['name']],
    });
    await createTable(queryRunner, {
      name: 'region',
      columns: [
        idColumn(),
        varchar('name'),
        { name: 'division', type: 'integer' },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['name']],
      foreignKeys: [{ column: 'division', references: 'division', onDelete: 'RESTRICT' }],
    });
    await createTable(queryRunner, {
      name: 'phys_location',
      columns: [
        idColumn(),
        varchar('name'),
        varchar('short_name'),
        varchar('address', 255, true),
        varchar('city', 255, true),
        varchar('state', 255, true),
        varchar('zip', 64, true),
        varchar('poc', 255, true),
        varchar('phone', 64, true),
        varchar('email', 255, true),
        { name: 'comments', type: 'text', isNullable: true },
        { name: 'region', type: 'integer' },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['name'], ['short_name']],
      foreignKeys: [{ column: 'region', references: 'region', onDelete: 'RESTRICT' }],
    });
    await createTable(queryRunner, {
      name: 'cachegroup',
      columns: [
        idColumn(),
        varchar('name'),
        varchar('short_name'),
        { name: 'latitude', type: 'double', isNullable: true },
        { name: 'longitude', type: 'double', isNullable: true },
        { name: 'parent_cachegroup_id', type: 'integer', isNullable: true },
        { name: 'secondary_parent_cachegroup_id', type: 'integer', isNullable: true },
        { name: 'type', type: 'integer' },
        { name: 'fallback_to_closest', type: 'boolean', default: true },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['name'], ['short_name']],
      foreignKeys: [
        { column: 'parent_cachegroup_id', references: 'cachegroup', onDelete: 'RESTRICT' },
        { column: 'secondary_parent_cachegroup_id', references: 'cachegroup', onDelete: 'RESTRICT' },
        { column: 'type', references: 'type', onDelete: 'RESTRICT' },
      ],
    });
    await createTable(queryRunner, {
      name: 'cachegroup_localization_method',
      columns: [idColumn(), { name: 'cachegroup', type: 'integer' }, varchar('method', 16)],
      unique: [['cachegroup', 'method']],
      foreignKeys: [{ column: 'cachegroup', references: 'cachegroup', onDelete: 'CASCADE' }],
    });
    await createTable(queryRunner, {
      name: 'cachegroup_fallbacks',
      columns: [
        idColumn(),
        { name: 'primary_cg', type: 'integer' },
        { name: 'backup_cg', type: 'integer' },
        { name: 'set_order', type: 'integer' },
      ],
      unique: [['primary_cg', 'backup_cg']],
      foreignKeys: [
        { column: 'primary_cg', references: 'cachegroup', onDelete: 'CASCADE' },
        { column: 'backup_cg', references: 'cachegroup', onDelete: 'CASCADE' },
      ],
    });
    await createTable(queryRunner, {
      name: 'asn',
      columns: [
        idColumn(),
        { name: 'asn', type: 'bigint' },
        { name: 'cachegroup', type: 'integer' },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['asn']],
      foreignKeys: [{ column: 'cachegroup', references: 'cachegroup', onDelete: 'RESTRICT' }],
    });
    await createTable(queryRunner, {
      name: 'profile',
      columns: [
        idColumn(),
        varchar('name'),
        { name: 'description', type: 'text', isNullable: true },
        varchar('type', 32),
        { name: 'cdn', type: 'integer' },
        { name: 'routing_disabled', type: 'boolean', default: false },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['name']],
      foreignKeys: [{ column: 'cdn', references: 'cdn', onDelete: 'RESTRICT' }],
    });
    await createTable(queryRunner, {
      name: 'parameter',
      columns: [
        idColumn(),
        varchar('name', 1024),
        varchar('config_file', 1024),
        { name: 'value', type: 'text' },
        // SHA-256 (hex) of name, config file and value: the key of the original's UNIQUE(name,
        // config_file, value), which MySQL cannot index on long text directly.
        varchar('identity', 64),
        { name: 'secure', type: 'boolean', default: false },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['identity']],
      indices: [['name']],
    });
    await createTable(queryRunner, {
      name: 'profile_parameter',
      columns: [
        idColumn(),
        { name: 'profile', type: 'integer' },
        { name: 'parameter', type: 'integer' },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['profile', 'parameter']],
      indices: [['parameter']],
      foreignKeys: [
        { column: 'profile', references: 'profile', onDelete: 'CASCADE' },
        { column: 'parameter', references: 'parameter', onDelete: 'CASCADE' },
      ],
    });
    await createTable(queryRunner, {
      name: 'server',
      columns: [
        idColumn(),
        varchar('host_name'),
        varchar('domain_name'),
        { name: 'tcp_port', type: 'integer', isNullable: true },
        { name: 'https_port', type: 'integer', isNullable: true },
        varchar('xmpp_id', 255, true),
        varchar('xmpp_passwd', 255, true),
        { name: 'phys_location', type: 'integer' },
        varchar('rack', 64, true),
        { name: 'cachegroup', type: 'integer' },
        { name: 'type', type: 'integer' },
        { name: 'status', type: 'integer' },
        varchar('offline_reason', 255, true),
        { name: 'cdn_id', type: 'integer' },
        varchar('mgmt_ip_address', 64, true),
        varchar('mgmt_ip_netmask', 64, true),
        varchar('mgmt_ip_gateway', 64, true),
        varchar('ilo_ip_address', 64, true),
        varchar('ilo_ip_netmask', 64, true),
        varchar('ilo_ip_gateway', 64, true),
        varchar('ilo_username', 255, true),
        varchar('ilo_password', 255, true),
        varchar('router_host_name', 255, true),
        varchar('router_port_name', 255, true),
        varchar('guid', 64, true),
        timestampColumn(queryRunner, 'status_last_updated'),
        timestampColumn(queryRunner, 'config_update_time'),
        timestampColumn(queryRunner, 'config_apply_time'),
        timestampColumn(queryRunner, 'revalidate_update_time'),
        timestampColumn(queryRunner, 'revalidate_apply_time'),
        lastUpdatedColumn(queryRunner),
      ],
      indices: [['cachegroup', 'cdn_id'], ['cdn_id'], ['host_name'], ['type'], ['status'], ['phys_location']],
      foreignKeys: [
        { column: 'phys_location', references: 'phys_location', onDelete: 'RESTRICT' },
        { column: 'cachegroup', references: 'cachegroup', onDelete: 'RESTRICT' },
        { column: 'type', references: 'type', onDelete: 'RESTRICT' },
        { column: 'status', references: 'status', onDelete: 'RESTRICT' },
        { column: 'cdn_id', references: 'cdn', onDelete: 'RESTRICT' },
      ],
    });
    await createTable(queryRunner, {
      name: 'server_profile',
      columns: [
        idColumn(),
        { name: 'server', type: 'integer' },
        { name: 'profile', type: 'integer' },
        { name: 'priority', type: 'integer' },
      ],
      unique: [
        ['server', 'profile'],
        ['server', 'priority'],
      ],
      indices: [['profile']],
      foreignKeys: [
        { column: 'server', references: 'server', onDelete: 'CASCADE' },
        { column: 'profile', references: 'profile', onDelete: 'RESTRICT' },
      ],
    });
    await createTable(queryRunner, {
      name: 'interface',
      columns: [
        idColumn(),
        { name: 'server', type: 'integer' },
        varchar('name', 255),
        { name: 'monitor', type: 'boolean', default: false },
        { name: 'mtu', type: 'integer', isNullable: true },
        { name: 'max_bandwidth', type: 'bigint', isNullable: true },
        varchar('router_host_name', 255, true),
        varchar('router_port_name', 255, true),
      ],
      unique: [['server', 'name']],
      foreignKeys: [{ column: 'server', references: 'server', onDelete: 'CASCADE' }],
    });
    await createTable(queryRunner, {
      name: 'ip_address',
      columns: [
        idColumn(),
        { name: 'server', type: 'integer' },
        { name: 'interface', type: 'integer' },
        varchar('address', 64),
        varchar('gateway', 64, true),
        { name: 'service_address', type: 'boolean', default: false },
      ],
      unique: [['interface', 'address']],
      indices: [['server']],
      foreignKeys: [
        { column: 'server', references: 'server', onDelete: 'CASCADE' },
        { column: 'interface', references: 'interface', onDelete: 'CASCADE' },
      ],
    });
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'ip_address',
      'interface',
      'server_profile',
      'server',
      'profile_parameter',
      'parameter',
      'profile',
      'asn',
      'cachegroup_fallbacks',
      'cachegroup_localization_method',
      'cachegroup',
      'phys_location',
      'region',
      'division',
    ]) {
      await dropTable(queryRunner, table);
    }
  }
}
