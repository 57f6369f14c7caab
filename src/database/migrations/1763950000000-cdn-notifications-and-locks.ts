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

/** Permissions of the new routes, per seeded role (`admin` holds `ALL`). */
const GRANTS: Record<string, string[]> = {
  operations: ['CDN-LOCK:CREATE', 'CDN-LOCK:DELETE'],
};

interface ForeignKey {
  column: string;
  references: string;
  referencedColumn: string;
}

function id(): TableColumnOptions {
  return { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
}

/**
 * A text column. On MySQL it takes the table's default collation, the server's NO PAD binary one set
 * by migration 1763830000000 (exact comparison; never `utf8mb4_bin`).
 */
function text(name: string, isNullable: boolean): TableColumnOptions {
  return { name, type: 'text', isNullable };
}

function lastUpdated(lite: boolean): TableColumnOptions {
  return lite
    ? { name: 'last_updated', type: 'datetime', default: 'CURRENT_TIMESTAMP' }
    : {
        name: 'last_updated',
        type: 'datetime',
        precision: 6,
        default: 'CURRENT_TIMESTAMP(6)',
        onUpdate: 'CURRENT_TIMESTAMP(6)',
      };
}

/**
 * A table whose foreign keys cascade on delete and are named `fk_<table>__<column>`; on SQLite each
 * key also gets the triggers that word a missing parent as the error classifier expects.
 */
async function createTable(
  queryRunner: QueryRunner,
  name: string,
  columns: TableColumnOptions[],
  foreignKeys: ForeignKey[],
  indices: string[],
): Promise<void> {
  const lite = sqlite(queryRunner);
  await queryRunner.createTable(
    new Table({
      name,
      columns,
      indices: indices.map(
        (column) => new TableIndex({ name: `ix_${name}__${column}`, columnNames: [column] }),
      ),
      foreignKeys: foreignKeys.map(
        (fk) =>
          new TableForeignKey({
            name: `fk_${name}__${fk.column}`,
            columnNames: [fk.column],
            referencedTableName: fk.references,
            referencedColumnNames: [fk.referencedColumn],
            onDelete: 'CASCADE',
            ...(lite ? {} : { onUpdate: 'NO ACTION' }),
          }),
      ),
    }),
  );
  if (!lite) {
    return;
  }
  for (const fk of foreignKeys) {
    const trigger = `fk_${name}__${fk.column}`;
    const message = `FOREIGN KEY missing ${name}.${fk.column} -> ${fk.references}`;
    const missing =
      `NEW."${fk.column}" IS NOT NULL AND NOT EXISTS ` +
      `(SELECT 1 FROM "${fk.references}" WHERE "${fk.referencedColumn}" = NEW."${fk.column}")`;
    await queryRunner.query(
      `CREATE TRIGGER "${trigger}_insert" BEFORE INSERT ON "${name}" WHEN ${missing} ` +
        `BEGIN SELECT RAISE(ABORT, '${message}'); END`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "${trigger}_update" BEFORE UPDATE OF "${fk.column}" ON "${name}" WHEN ${missing} ` +
        `BEGIN SELECT RAISE(ABORT, '${message}'); END`,
    );
  }
}

/**
 * CDN notifications and CDN locks (docs/original-behaviour.md#cdn-notifications,
 * docs/original-behaviour.md#cdn-locks): `cdn_notification`, `cdn_lock` (one per CDN) and
 * `cdn_lock_user` (the users a lock is shared with). They refer to the CDN and the users by id
 * (docs/decisions.md#d75); deleting a CDN or a user deletes its notifications and locks.
 */
export class CdnNotificationsAndLocks1763950000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    await createTable(
      queryRunner,
      'cdn_notification',
      [
        id(),
        { name: 'cdn_id', type: 'integer' },
        { name: 'tm_user_id', type: 'integer' },
        text('notification', false),
        lastUpdated(lite),
      ],
      [
        { column: 'cdn_id', references: 'cdn', referencedColumn: 'id' },
        { column: 'tm_user_id', references: 'tm_user', referencedColumn: 'id' },
      ],
      ['cdn_id', 'tm_user_id'],
    );
    await createTable(
      queryRunner,
      'cdn_lock',
      [
        { name: 'cdn_id', type: 'integer', isPrimary: true },
        { name: 'tm_user_id', type: 'integer' },
        text('message', true),
        { name: 'soft', type: 'boolean', default: true },
        lastUpdated(lite),
      ],
      [
        { column: 'cdn_id', references: 'cdn', referencedColumn: 'id' },
        { column: 'tm_user_id', references: 'tm_user', referencedColumn: 'id' },
      ],
      ['tm_user_id'],
    );
    await createTable(
      queryRunner,
      'cdn_lock_user',
      [
        { name: 'cdn_id', type: 'integer', isPrimary: true },
        { name: 'tm_user_id', type: 'integer', isPrimary: true },
      ],
      [
        { column: 'cdn_id', references: 'cdn_lock', referencedColumn: 'cdn_id' },
        { column: 'tm_user_id', references: 'tm_user', referencedColumn: 'id' },
      ],
      ['tm_user_id'],
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
    await queryRunner.query(`DELETE FROM role_capability WHERE cap_name LIKE 'CDN-LOCK:%'`);
    for (const table of ['cdn_lock_user', 'cdn_lock', 'cdn_notification']) {
      await queryRunner.dropTable(table);
    }
  }
}
