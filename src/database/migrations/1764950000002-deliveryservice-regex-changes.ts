import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const TABLE = 'deliveryservice_regex';
const INDEX = 'ix_deliveryservice_regex__last_updated';

/** The parents whose deletion cascades into the links (ON DELETE CASCADE): column, parent. */
const CASCADES: [column: string, parent: string][] = [
  ['deliveryservice', 'deliveryservice'],
  ['regex', 'regex'],
];

/** SQLite: the column's default, which the triggers replace by the time of the write. */
const EPOCH = '1970-01-01 00:00:00';

/** A time as the service's SQLite triggers write it (text with milliseconds). */
const SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now')";

/**
 * The links of delivery services to their regexes (`deliveryservice_regex`) get `last_updated` and
 * their deletions are tracked in `last_deleted`, so that `GET deliveryservices_regexes` (which every
 * cache's t3c run asks, with If-Modified-Since) answers 304 when nothing changed
 * (docs/decisions.md#d228). MySQL: the column as every other table's (DATETIME(6), set on insert and
 * on update by the database), an AFTER DELETE trigger, and on each parent whose deletion cascades into
 * the links a BEFORE DELETE trigger (MySQL fires no trigger for cascaded rows). SQLite cannot add a
 * column whose default is the current time: the column's default is the epoch, and triggers set the
 * time of an insert that left it to the default and of an update that did not set it; SQLite fires
 * the AFTER DELETE trigger for cascaded rows too.
 */
export class DeliveryserviceRegexChanges1764950000002 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = queryRunner.connection.options.type === 'better-sqlite3';
    if (lite) {
      await queryRunner.query(
        `ALTER TABLE "${TABLE}" ADD COLUMN "last_updated" datetime NOT NULL DEFAULT '${EPOCH}'`,
      );
      await queryRunner.query(`UPDATE "${TABLE}" SET last_updated = ${SQLITE_NOW}`);
      // An insert that left the time to the default, or an update that did not set it, gets now.
      const unset = {
        inserted: `AFTER INSERT ON "${TABLE}" WHEN NEW.last_updated = '${EPOCH}'`,
        updated: `AFTER UPDATE ON "${TABLE}" WHEN NEW.last_updated IS OLD.last_updated`,
      };
      for (const [name, when] of Object.entries(unset)) {
        await queryRunner.query(
          `CREATE TRIGGER "trg_${TABLE}_${name}" ${when} BEGIN ` +
            `UPDATE "${TABLE}" SET last_updated = ${SQLITE_NOW} WHERE id = NEW.id; END`,
        );
      }
    } else {
      await queryRunner.query(
        `ALTER TABLE \`${TABLE}\` ADD COLUMN \`last_updated\` datetime(6) NOT NULL ` +
          'DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6)',
      );
    }
    await queryRunner.createIndex(TABLE, new TableIndex({ name: INDEX, columnNames: ['last_updated'] }));
    await queryRunner.query(
      lite
        ? `CREATE TRIGGER "trg_${TABLE}_deleted" AFTER DELETE ON "${TABLE}" BEGIN ` +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('${TABLE}', ${SQLITE_NOW}) ` +
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
    const lite = queryRunner.connection.options.type === 'better-sqlite3';
    const triggers = lite
      ? [`trg_${TABLE}_inserted`, `trg_${TABLE}_updated`, `trg_${TABLE}_deleted`]
      : [`trg_${TABLE}_deleted`, ...CASCADES.map(([column]) => `trg_${TABLE}__${column}_cascade`)];
    for (const trigger of triggers) {
      await queryRunner.query(`DROP TRIGGER IF EXISTS ${trigger}`);
    }
    await queryRunner.dropIndex(TABLE, INDEX);
    await queryRunner.query(`ALTER TABLE ${TABLE} DROP COLUMN last_updated`);
    await queryRunner.query(`DELETE FROM last_deleted WHERE table_name = '${TABLE}'`);
  }
}
