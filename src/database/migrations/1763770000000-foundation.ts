import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, dropTable, idColumn, lastUpdatedColumn, timestampColumn } from './support/schema-v1';

/** Tenants, roles and their permissions, users, types, statuses and CDNs. */
export class Foundation1763770000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(queryRunner, {
      name: 'tenant',
      columns: [
        idColumn(),
        { name: 'name', type: 'varchar', length: '255' },
        { name: 'active', type: 'boolean', default: false },
        { name: 'parent_id', type: 'integer', isNullable: true },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['name']],
      foreignKeys: [{ column: 'parent_id', references: 'tenant', onDelete: 'RESTRICT' }],
    });
    await createTable(queryRunner, {
      name: 'role',
      columns: [
        idColumn(),
        { name: 'name', type: 'varchar', length: '255' },
        { name: 'description', type: 'text' },
        { name: 'priv_level', type: 'integer' },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['name']],
    });
    await createTable(queryRunner, {
      name: 'role_capability',
      columns: [
        idColumn(),
        { name: 'role_id', type: 'integer' },
        { name: 'cap_name', type: 'varchar', length: '100' },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['role_id', 'cap_name']],
      foreignKeys: [{ column: 'role_id', references: 'role', onDelete: 'CASCADE' }],
    });
    await createTable(queryRunner, {
      name: 'tm_user',
      columns: [
        idColumn(),
        { name: 'username', type: 'varchar', length: '128' },
        { name: 'email', type: 'varchar', length: '255', isNullable: true },
        { name: 'full_name', type: 'varchar', length: '255', isNullable: true },
        { name: 'local_passwd', type: 'varchar', length: '255', isNullable: true },
        { name: 'role', type: 'integer' },
        { name: 'tenant_id', type: 'integer' },
        { name: 'company', type: 'varchar', length: '255', isNullable: true },
        { name: 'address_line1', type: 'varchar', length: '255', isNullable: true },
        { name: 'address_line2', type: 'varchar', length: '255', isNullable: true },
        { name: 'city', type: 'varchar', length: '128', isNullable: true },
        { name: 'state_or_province', type: 'varchar', length: '128', isNullable: true },
        { name: 'postal_code', type: 'varchar', length: '32', isNullable: true },
        { name: 'country', type: 'varchar', length: '128', isNullable: true },
        { name: 'phone_number', type: 'varchar', length: '64', isNullable: true },
        { name: 'public_ssh_key', type: 'text', isNullable: true },
        { name: 'uid', type: 'integer', isNullable: true },
        { name: 'gid', type: 'integer', isNullable: true },
        { name: 'new_user', type: 'boolean', default: false },
        { name: 'ucdn', type: 'varchar', length: '64', default: "''" },
        timestampColumn(queryRunner, 'registration_sent'),
        timestampColumn(queryRunner, 'last_authenticated'),
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['username'], ['email']],
      foreignKeys: [
        { column: 'role', references: 'role', onDelete: 'RESTRICT' },
        { column: 'tenant_id', references: 'tenant', onDelete: 'RESTRICT' },
      ],
    });
    await createTable(queryRunner, {
      name: 'type',
      columns: [
        idColumn(),
        { name: 'name', type: 'varchar', length: '255' },
        { name: 'description', type: 'text' },
        { name: 'use_in_table', type: 'varchar', length: '64' },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['name']],
      indices: [['use_in_table']],
    });
    await createTable(queryRunner, {
      name: 'status',
      columns: [
        idColumn(),
        { name: 'name', type: 'varchar', length: '255' },
        { name: 'description', type: 'text', isNullable: true },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['name']],
    });
    await createTable(queryRunner, {
      name: 'cdn',
      columns: [
        idColumn(),
        { name: 'name', type: 'varchar', length: '255' },
        { name: 'domain_name', type: 'varchar', length: '255' },
        { name: 'dnssec_enabled', type: 'boolean', default: false },
        { name: 'ttl_override', type: 'integer', isNullable: true },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['name'], ['domain_name']],
    });
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['cdn', 'status', 'type', 'tm_user', 'role_capability', 'role', 'tenant']) {
      await dropTable(queryRunner, table);
    }
  }
}
