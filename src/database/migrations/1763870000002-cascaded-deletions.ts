import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The foreign keys through which deleting a parent row deletes rows of a table tracked in
 * `last_deleted` (ON DELETE CASCADE), as they were when this migration was written: child table,
 * its column, parent table.
 */
const CASCADES: [child: string, column: string, parent: string][] = [
  ['deliveryservice_server', 'deliveryservice', 'deliveryservice'],
  ['deliveryservice_server', 'server', 'server'],
  ['federation_deliveryservice', 'federation', 'federation'],
  ['federation_deliveryservice', 'deliveryservice', 'deliveryservice'],
  ['federation_resolver', 'type', 'type'],
  ['profile_parameter', 'profile', 'profile'],
  ['profile_parameter', 'parameter', 'parameter'],
  ['steering_target', 'deliveryservice', 'deliveryservice'],
  ['steering_target', 'target', 'deliveryservice'],
];

const trigger = (child: string, column: string): string => `trg_${child}__${column}_cascade`;

/**
 * MySQL/MariaDB: deletions made by ON DELETE CASCADE are recorded in `last_deleted` too.
 *
 * Migration 1763810000000 records a table's deletions with an AFTER DELETE trigger on the table.
 * MySQL and MariaDB do not fire triggers for rows that a foreign key's cascade deletes (SQLite
 * does), so on MySQL deleting, say, a delivery service removed its server assignments without
 * `deliveryservice_server` counting as changed, and GET deliveryserviceserver with If-Modified-Since
 * could answer 304 for a list that had lost rows. Here a BEFORE DELETE trigger on the parent table
 * records the child table when the parent row has children (the cascade deletes them in the same
 * statement). Nothing to do on SQLite.
 */
export class CascadedDeletions1763870000002 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      return;
    }
    for (const [child, column, parent] of CASCADES) {
      await queryRunner.query(
        `CREATE TRIGGER \`${trigger(child, column)}\` BEFORE DELETE ON \`${parent}\` FOR EACH ROW ` +
          `INSERT INTO last_deleted (table_name, last_updated) SELECT '${child}', CURRENT_TIMESTAMP(6) FROM DUAL ` +
          `WHERE EXISTS (SELECT 1 FROM \`${child}\` WHERE \`${column}\` = OLD.id) ` +
          'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      return;
    }
    for (const [child, column] of CASCADES) {
      await queryRunner.query(`DROP TRIGGER IF EXISTS \`${trigger(child, column)}\``);
    }
  }
}
