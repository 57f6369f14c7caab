import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const sqlite = (queryRunner: QueryRunner): boolean =>
  queryRunner.connection.options.type === 'better-sqlite3';

/** The comment's references: column, referenced table, ON DELETE rule (as the original's keys). */
const KEYS: [column: string, parent: string][] = [
  ['author_id', 'tm_user'],
  ['deliveryservice_request_id', 'deliveryservice_request'],
];

/**
 * `deliveryservice_request_comment` (docs/original-behaviour.md#deliveryservice-request-comments):
 * a comment's text, its author and its request; deleting either deletes the comment. Deletions,
 * also those the request's deletion cascades to on MySQL, are tracked in `last_deleted`.
 */
export class DeliveryServiceRequestComments1763960000004 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: 'deliveryservice_request_comment',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'author_id', type: 'integer' },
          { name: 'deliveryservice_request_id', type: 'integer' },
          lite ? { name: 'value', type: 'text' } : { name: 'value', type: 'text' },
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
        indices: [
          new TableIndex({
            name: 'ix_deliveryservice_request_comment__deliveryservice_request_id',
            columnNames: ['deliveryservice_request_id'],
          }),
          new TableIndex({
            name: 'ix_deliveryservice_request_comment__last_updated',
            columnNames: ['last_updated'],
          }),
        ],
        foreignKeys: KEYS.map(
          ([column, parent]) =>
            new TableForeignKey({
              name: `fk_deliveryservice_request_comment__${column}`,
              columnNames: [column],
              referencedTableName: parent,
              referencedColumnNames: ['id'],
              onDelete: 'CASCADE',
              onUpdate: lite ? undefined : 'NO ACTION',
            }),
        ),
      }),
    );
    if (lite) {
      for (const [column, parent] of KEYS) {
        const missing = `FOREIGN KEY missing deliveryservice_request_comment.${column} -> ${parent}`;
        const parentMissing = `NEW."${column}" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "${parent}" WHERE id = NEW."${column}")`;
        const name = `fk_deliveryservice_request_comment__${column}`;
        await queryRunner.query(
          `CREATE TRIGGER "${name}_insert" BEFORE INSERT ON "deliveryservice_request_comment" WHEN ${parentMissing} ` +
            `BEGIN SELECT RAISE(ABORT, '${missing}'); END`,
        );
        await queryRunner.query(
          `CREATE TRIGGER "${name}_update" BEFORE UPDATE OF "${column}" ON "deliveryservice_request_comment" WHEN ${parentMissing} ` +
            `BEGIN SELECT RAISE(ABORT, '${missing}'); END`,
        );
      }
    }
    await queryRunner.query(
      lite
        ? `CREATE TRIGGER "trg_deliveryservice_request_comment_deleted" AFTER DELETE ON "deliveryservice_request_comment" BEGIN ` +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('deliveryservice_request_comment', strftime('%Y-%m-%d %H:%M:%f', 'now')) ` +
            'ON CONFLICT(table_name) DO UPDATE SET last_updated = excluded.last_updated; END'
        : 'CREATE TRIGGER `trg_deliveryservice_request_comment_deleted` AFTER DELETE ON `deliveryservice_request_comment` FOR EACH ROW ' +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('deliveryservice_request_comment', CURRENT_TIMESTAMP(6)) ` +
            'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
    );
    if (!lite) {
      // MySQL fires no trigger for the rows a cascade deletes: the request's deletion records them.
      await queryRunner.query(
        'CREATE TRIGGER `trg_deliveryservice_request_comment__request_cascade` BEFORE DELETE ON `deliveryservice_request` FOR EACH ROW ' +
          `INSERT INTO last_deleted (table_name, last_updated) SELECT 'deliveryservice_request_comment', CURRENT_TIMESTAMP(6) FROM DUAL ` +
          'WHERE EXISTS (SELECT 1 FROM `deliveryservice_request_comment` WHERE `deliveryservice_request_id` = OLD.id) ' +
          'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    await queryRunner.query('DROP TRIGGER IF EXISTS trg_deliveryservice_request_comment_deleted');
    if (!lite) {
      await queryRunner.query('DROP TRIGGER IF EXISTS trg_deliveryservice_request_comment__request_cascade');
    }
    await queryRunner.query(`DELETE FROM last_deleted WHERE table_name = 'deliveryservice_request_comment'`);
    if (lite) {
      for (const [column] of KEYS) {
        for (const suffix of ['insert', 'update']) {
          await queryRunner.query(
            `DROP TRIGGER IF EXISTS "fk_deliveryservice_request_comment__${column}_${suffix}"`,
          );
        }
      }
    }
    await queryRunner.dropTable('deliveryservice_request_comment');
  }
}
