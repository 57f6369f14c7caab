import {
  Table,
  TableForeignKey,
  TableIndex,
  type MigrationInterface,
  type QueryRunner,
  type TableColumnOptions,
} from 'typeorm';

const sqlite = (queryRunner: QueryRunner): boolean =>
  queryRunner.connection.options.type === 'better-sqlite3';

/** The request's references to users: column, ON DELETE rule (as the original's keys). */
const USER_KEYS: [column: string, onDelete: 'CASCADE' | 'SET NULL'][] = [
  ['assignee_id', 'SET NULL'],
  ['author_id', 'CASCADE'],
  ['last_edited_by_id', 'SET NULL'],
];

/** Permissions of the new routes, per seeded role (`admin` holds `ALL`). */
const WRITE = ['DS-REQUEST:READ', 'DS-REQUEST:CREATE', 'DS-REQUEST:UPDATE', 'DS-REQUEST:DELETE'];
const GRANTS: Record<string, string[]> = {
  operations: WRITE,
  portal: WRITE,
  steering: WRITE,
  federation: WRITE,
  'read-only': ['DS-REQUEST:READ'],
};

/**
 * `deliveryservice_request` (docs/original-behaviour.md#deliveryservice-requests): the requested and
 * the original delivery service as JSON text, the change type and status, the author, assignee and
 * last editor; `xml_id` and `tenant_id` are those of the delivery service the request is about, kept
 * for filtering and tenancy in SQL (docs/decisions.md#d84). Deletions are tracked in `last_deleted`.
 */
export class DeliveryServiceRequests1763960000003 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    const text = (
      name: string,
      type: 'varchar' | 'text',
      length?: string,
      isNullable = false,
    ): TableColumnOptions => (lite ? { name, type, length, isNullable } : { name, type, length, isNullable });
    const time = (name: string, onUpdate = false): TableColumnOptions =>
      lite
        ? { name, type: 'datetime', default: 'CURRENT_TIMESTAMP' }
        : {
            name,
            type: 'datetime',
            precision: 6,
            default: 'CURRENT_TIMESTAMP(6)',
            ...(onUpdate ? { onUpdate: 'CURRENT_TIMESTAMP(6)' } : {}),
          };
    await queryRunner.createTable(
      new Table({
        name: 'deliveryservice_request',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'assignee_id', type: 'integer', isNullable: true },
          { name: 'author_id', type: 'integer' },
          text('change_type', 'varchar', '8'),
          time('created_at'),
          { name: 'last_edited_by_id', type: 'integer', isNullable: true },
          text('deliveryservice', 'text', undefined, true),
          text('original', 'text', undefined, true),
          text('status', 'varchar', '16'),
          text('xml_id', 'varchar', '48'),
          { name: 'tenant_id', type: 'integer', isNullable: true },
          time('last_updated', true),
        ],
        indices: [
          new TableIndex({ name: 'ix_deliveryservice_request__xml_id', columnNames: ['xml_id'] }),
          new TableIndex({ name: 'ix_deliveryservice_request__last_updated', columnNames: ['last_updated'] }),
        ],
        foreignKeys: USER_KEYS.map(
          ([column, onDelete]) =>
            new TableForeignKey({
              name: `fk_deliveryservice_request__${column}`,
              columnNames: [column],
              referencedTableName: 'tm_user',
              referencedColumnNames: ['id'],
              onDelete,
              onUpdate: lite ? undefined : 'NO ACTION',
            }),
        ),
      }),
    );
    if (lite) {
      for (const [column] of USER_KEYS) {
        const missing = `FOREIGN KEY missing deliveryservice_request.${column} -> tm_user`;
        const parentMissing = `NEW."${column}" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "tm_user" WHERE id = NEW."${column}")`;
        const name = `fk_deliveryservice_request__${column}`;
        await queryRunner.query(
          `CREATE TRIGGER "${name}_insert" BEFORE INSERT ON "deliveryservice_request" WHEN ${parentMissing} ` +
            `BEGIN SELECT RAISE(ABORT, '${missing}'); END`,
        );
        await queryRunner.query(
          `CREATE TRIGGER "${name}_update" BEFORE UPDATE OF "${column}" ON "deliveryservice_request" WHEN ${parentMissing} ` +
            `BEGIN SELECT RAISE(ABORT, '${missing}'); END`,
        );
      }
    }
    await queryRunner.query(
      lite
        ? `CREATE TRIGGER "trg_deliveryservice_request_deleted" AFTER DELETE ON "deliveryservice_request" BEGIN ` +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('deliveryservice_request', strftime('%Y-%m-%d %H:%M:%f', 'now')) ` +
            'ON CONFLICT(table_name) DO UPDATE SET last_updated = excluded.last_updated; END'
        : 'CREATE TRIGGER `trg_deliveryservice_request_deleted` AFTER DELETE ON `deliveryservice_request` FOR EACH ROW ' +
            `INSERT INTO last_deleted (table_name, last_updated) VALUES ('deliveryservice_request', CURRENT_TIMESTAMP(6)) ` +
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
    await queryRunner.query(`DELETE FROM role_capability WHERE cap_name LIKE 'DS-REQUEST:%'`);
    await queryRunner.query('DROP TRIGGER IF EXISTS trg_deliveryservice_request_deleted');
    await queryRunner.query(`DELETE FROM last_deleted WHERE table_name = 'deliveryservice_request'`);
    if (sqlite(queryRunner)) {
      for (const [column] of USER_KEYS) {
        for (const suffix of ['insert', 'update']) {
          await queryRunner.query(`DROP TRIGGER IF EXISTS "fk_deliveryservice_request__${column}_${suffix}"`);
        }
      }
    }
    await queryRunner.dropTable('deliveryservice_request');
  }
}
