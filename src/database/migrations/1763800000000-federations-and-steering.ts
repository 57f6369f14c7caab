import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, dropTable, idColumn, lastUpdatedColumn } from './support/schema-v1';

/** Federations, their users, DSes and resolvers; steering targets (docs/original-behaviour.md#schema). */
export class FederationsAndSteering1763800000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await createTable(queryRunner, {
      name: 'federation',
      columns: [
        idColumn(),
        { name: 'cname', type: 'varchar', length: '1024' },
        { name: 'description', type: 'text', isNullable: true },
        { name: 'ttl', type: 'integer' },
        lastUpdatedColumn(queryRunner),
      ],
    });
    await createTable(queryRunner, {
      name: 'federation_deliveryservice',
      columns: [
        idColumn(),
        { name: 'federation', type: 'integer' },
        { name: 'deliveryservice', type: 'integer' },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['federation', 'deliveryservice']],
      indices: [['deliveryservice']],
      foreignKeys: [
        { column: 'federation', references: 'federation', onDelete: 'CASCADE' },
        { column: 'deliveryservice', references: 'deliveryservice', onDelete: 'CASCADE' },
      ],
    });
    await createTable(queryRunner, {
      name: 'federation_tmuser',
      columns: [
        idColumn(),
        { name: 'federation', type: 'integer' },
        { name: 'tm_user', type: 'integer' },
        { name: 'role', type: 'integer', isNullable: true },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['federation', 'tm_user']],
      indices: [['tm_user']],
      foreignKeys: [
        { column: 'federation', references: 'federation', onDelete: 'CASCADE' },
        { column: 'tm_user', references: 'tm_user', onDelete: 'CASCADE' },
        { column: 'role', references: 'role', onDelete: 'SET NULL' },
      ],
    });
    await createTable(queryRunner, {
      name: 'federation_resolver',
      columns: [
        idColumn(),
        { name: 'ip_address', type: 'varchar', length: '64' },
        { name: 'type', type: 'integer' },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['ip_address']],
      foreignKeys: [{ column: 'type', references: 'type', onDelete: 'CASCADE' }],
    });
    await createTable(queryRunner, {
      name: 'federation_federation_resolver',
      columns: [
        idColumn(),
        { name: 'federation', type: 'integer' },
        { name: 'federation_resolver', type: 'integer' },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['federation', 'federation_resolver']],
      indices: [['federation_resolver']],
      foreignKeys: [
        { column: 'federation', references: 'federation', onDelete: 'CASCADE' },
        { column: 'federation_resolver', references: 'federation_resolver', onDelete: 'CASCADE' },
      ],
    });
    await createTable(queryRunner, {
      name: 'steering_target',
      columns: [
        idColumn(),
        { name: 'deliveryservice', type: 'integer' },
        { name: 'target', type: 'integer' },
        { name: 'value', type: 'bigint' },
        { name: 'type', type: 'integer' },
        lastUpdatedColumn(queryRunner),
      ],
      unique: [['deliveryservice', 'target']],
      indices: [['target']],
      foreignKeys: [
        { column: 'deliveryservice', references: 'deliveryservice', onDelete: 'CASCADE' },
        { column: 'target', references: 'deliveryservice', onDelete: 'CASCADE' },
        { column: 'type', references: 'type', onDelete: 'RESTRICT' },
      ],
    });
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'steering_target',
      'federation_federation_resolver',
      'federation_resolver',
      'federation_tmuser',
      'federation_deliveryservice',
      'federation',
    ]) {
      await dropTable(queryRunner, table);
    }
  }
}
