import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const sqlite = (queryRunner: QueryRunner): boolean =>
  queryRunner.connection.options.type === 'better-sqlite3';

/** Permissions of the new routes, per seeded role (`admin` holds `ALL`). */
const GRANTS: Record<string, string[]> = {
  operations: [
    'SERVICE-CATEGORY:READ',
    'SERVICE-CATEGORY:CREATE',
    'SERVICE-CATEGORY:UPDATE',
    'SERVICE-CATEGORY:DELETE',
  ],
  'read-only': ['SERVICE-CATEGORY:READ'],
  portal: ['SERVICE-CATEGORY:READ'],
  steering: ['SERVICE-CATEGORY:READ'],
  federation: ['SERVICE-CATEGORY:READ'],
};

/**
 * `service_category` (docs/original-behaviour.md#service-categories): a name, which is the key as in
 * the original, and `last_updated`; its deletions are tracked in `last_deleted` for If-Modified-Since.
 */
export class ServiceCategories1763960000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'service_category',
        columns: [
          lite
            ? { name: 'name', type: 'varchar', length: '255', isPrimary: true }
            : {
                name: 'name',
                type: 'varchar',
                length: '255',
                isPrimary: true,
              },
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
      }),
    );
    await queryRunner.createIndex(
      'service_category',
      new TableIndex({ name: 'ix_service_category__last_updated', columnNames: ['last_updated'] }),
    );
    await queryRunner.query(
      lite
        ? `CREATE TRIGGER "trg_service_category_deleted" AFTER DELETE ON "service_category" BEGIN ` +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('service_category', strftime('%Y-%m-%d %H:%M:%f', 'now')) ` +
            'ON CONFLICT(table_name) DO UPDATE SET last_updated = excluded.last_updated; END'
        : 'CREATE TRIGGER `trg_service_category_deleted` AFTER DELETE ON `service_category` FOR EACH ROW ' +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('service_category', CURRENT_TIMESTAMP(6)) ` +
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
    await queryRunner.query(`DELETE FROM role_capability WHERE cap_name LIKE 'SERVICE-CATEGORY:%'`);
    await queryRunner.query('DROP TRIGGER IF EXISTS trg_service_category_deleted');
    await queryRunner.query(`DELETE FROM last_deleted WHERE table_name = 'service_category'`);
    await queryRunner.dropTable('service_category');
  }
}
