import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, dropTable, isSqlite } from './support/schema-v1';

/** Tables whose lists answer If-Modified-Since: a deletion counts as a change (docs/decisions.md#d33). */
const TRACKED_TABLES = [
  'asn',
  'cachegroup',
  'cdn',
  'deliveryservice',
  'deliveryservice_server',
  'division',
  'federation',
  'federation_deliveryservice',
  'federation_resolver',
  'parameter',
  'phys_location',
  'profile',
  'profile_parameter',
  'region',
  'role',
  'server',
  'status',
  'steering_target',
  'tenant',
  'tm_user',
  'type',
];

const trigger = (table: string): string => `trg_${table}_deleted`;

/** `last_deleted(table_name, last_updated)`, kept by an AFTER DELETE trigger on each tracked table. */
export class LastDeleted1763810000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = isSqlite(queryRunner);
    await createTable(queryRunner, {
      name: 'last_deleted',
      columns: [
        { name: 'table_name', type: 'varchar', length: '64', isPrimary: true },
        sqlite
          ? { name: 'last_updated', type: 'datetime', default: 'CURRENT_TIMESTAMP' }
          : { name: 'last_updated', type: 'datetime', precision: 6, default: 'CURRENT_TIMESTAMP(6)' },
      ],
    });
    for (const table of TRACKED_TABLES) {
      await queryRunner.query(
        sqlite
          ? `CREATE TRIGGER "${trigger(table)}" AFTER DELETE ON "${table}" BEGIN ` +
              `INSERT INTO last_deleted (table_name, last_updated) VALUES ('${table}', strftime('%Y-%m-%d %H:%M:%f', 'now')) ` +
              'ON CONFLICT(table_name) DO UPDATE SET last_updated = excluded.last_updated; END'
          : `CREATE TRIGGER \`${trigger(table)}\` AFTER DELETE ON \`${table}\` FOR EACH ROW ` +
              `INSERT INTO last_deleted (table_name, last_updated) VALUES ('${table}', CURRENT_TIMESTAMP(6)) ` +
              'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TRACKED_TABLES) {
      await queryRunner.query(`DROP TRIGGER IF EXISTS ${trigger(table)}`);
    }
    await dropTable(queryRunner, 'last_deleted');
  }
}
