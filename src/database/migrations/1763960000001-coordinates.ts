import { Table, TableIndex, TableUnique, type MigrationInterface, type QueryRunner } from 'typeorm';

const sqlite = (queryRunner: QueryRunner): boolean =>
  queryRunner.connection.options.type === 'better-sqlite3';

/** Permissions of the new routes, per seeded role (`admin` holds `ALL`). */
const GRANTS: Record<string, string[]> = {
  operations: ['COORDINATE:READ', 'COORDINATE:CREATE', 'COORDINATE:UPDATE', 'COORDINATE:DELETE'],
  'read-only': ['COORDINATE:READ'],
  portal: ['COORDINATE:READ'],
  steering: ['COORDINATE:READ'],
  federation: ['COORDINATE:READ'],
};

/**
 * `coordinate` (docs/original-behaviour.md#coordinates): a unique name and a latitude and longitude
 * (NOT NULL, default 0 as in the original); deletions tracked in `last_deleted`.
 */
export class Coordinates1763960000001 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'coordinate',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          lite
            ? { name: 'name', type: 'varchar', length: '255' }
            : { name: 'name', type: 'varchar', length: '255' },
          { name: 'latitude', type: 'double', default: 0 },
          { name: 'longitude', type: 'double', default: 0 },
          lite
            ? { name: 'last_updated', type: 'datetime', default: 'CURRENT_TIMESTAMP' }
            : {
                name: 'last_updated',
                type: 'datetime',
                precision: 6,
                default: 'CURRENT_TIMESTAMP(6)',
                onUpdate: 'CURRENT_TIMESTAMP(6)',
              },
        ],
        uniques: [new TableUnique({ name: 'uq_coordinate__name', columnNames: ['name'] })],
      }),
    );
    await queryRunner.createIndex(
      'coordinate',
      new TableIndex({ name: 'ix_coordinate__last_updated', columnNames: ['last_updated'] }),
    );
    await queryRunner.query(
      lite
        ? `CREATE TRIGGER "trg_coordinate_deleted" AFTER DELETE ON "coordinate" BEGIN ` +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('coordinate', strftime('%Y-%m-%d %H:%M:%f', 'now')) ` +
            'ON CONFLICT(table_name) DO UPDATE SET last_updated = excluded.last_updated; END'
        : 'CREATE TRIGGER `trg_coordinate_deleted` AFTER DELETE ON `coordinate` FOR EACH ROW ' +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('coordinate', CURRENT_TIMESTAMP(6)) ` +
            'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
    );
    for (const [role, permissions] of Object.entries(GRANTS)) {
      for (const permission of permissions) {
        await queryRunner.query(
          'INSERT INTO role_capability (role_id, cap_name) SELECT id, ? FROM role WHERE name = ?',
          [permission, role],
        );
      }
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM role_capability WHERE cap_name LIKE 'COORDINATE:%'`);
    await queryRunner.query('DROP TRIGGER IF EXISTS trg_coordinate_deleted');
    await queryRunner.query(`DELETE FROM last_deleted WHERE table_name = 'coordinate'`);
    await queryRunner.dropTable('coordinate');
  }
}
