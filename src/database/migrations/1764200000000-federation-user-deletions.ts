import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const TABLE = 'federation_tmuser';
const INDEX = 'ix_federation_tmuser__last_updated';

/** The foreign keys through which deleting a parent row deletes assignments (ON DELETE CASCADE): column, parent. */
const CASCADES: [column: string, parent: string][] = [
  ['federation', 'federation'],
  ['tm_user', 'tm_user'],
];

/**
 * The users assigned to federations (`federation_tmuser`) are tracked in `last_deleted` like the other
 * tables a conditional GET reads (`GET federations/{id}/users` answers If-Modified-Since from them,
 * docs/database.md#delete-tracking): an AFTER DELETE trigger on both databases, on MySQL a BEFORE
 * DELETE trigger on each parent whose deletion cascades into the assignments (MySQL fires no trigger
 * for cascaded rows), and the index of `last_updated` the check reads.
 */
export class FederationUserDeletions1764200000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = queryRunner.connection.options.type === 'better-sqlite3';
    await queryRunner.createIndex(TABLE, new TableIndex({ name: INDEX, columnNames: ['last_updated'] }));
    await queryRunner.query(
      lite
        ? `CREATE TRIGGER "trg_${TABLE}_deleted" AFTER DELETE ON "${TABLE}" BEGIN ` +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('${TABLE}', strftime('%Y-%m-%d %H:%M:%f', 'now')) ` +
            'ON CONFLICT(table_name) DO UPDATE SET last_updated = excluded.last_updated; END'
        : `CREATE TRIGGER \`trg_${TABLE}_deleted\` AFTER DELETE ON \`${TABLE}\` FOR EACH ROW ` +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('${TABLE}', CURRENT_TIMESTAMP(6)) ` +
            'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
    );
    if (lite) {
      return;
    }
    for (const [column, parent] of CASCADES) {
      await queryRunner.query(
        `CREATE TRIGGER \`trg_${TABLE}__${column}_cascade\` BEFORE DELETE ON \`${parent}\` FOR EACH ROW ` +
          `INSERT INTO last_deleted (table_name, last_updated) SELECT '${TABLE}', CURRENT_TIMESTAMP(6) FROM DUAL ` +
          `WHERE EXISTS (SELECT 1 FROM \`${TABLE}\` WHERE \`${column}\` = OLD.id) ` +
          'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'better-sqlite3') {
      for (const [column] of CASCADES) {
        await queryRunner.query(`DROP TRIGGER IF EXISTS \`trg_${TABLE}__${column}_cascade\``);
      }
    }
    await queryRunner.query(`DROP TRIGGER IF EXISTS trg_${TABLE}_deleted`);
    await queryRunner.query('DELETE FROM last_deleted WHERE table_name = ?', [TABLE]);
    await queryRunner.dropIndex(TABLE, INDEX);
  }
}
