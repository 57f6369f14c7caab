import { Table, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const sqlite = (queryRunner: QueryRunner): boolean =>
  queryRunner.connection.options.type === 'better-sqlite3';

/** Permissions of the new routes, per seeded role (`admin` holds `ALL`). */
const GRANTS: Record<string, string[]> = {
  operations: [
    'SERVER-CAPABILITY:READ',
    'SERVER-CAPABILITY:CREATE',
    'SERVER-CAPABILITY:UPDATE',
    'SERVER-CAPABILITY:DELETE',
  ],
  'read-only': ['SERVER-CAPABILITY:READ'],
  portal: ['SERVER-CAPABILITY:READ'],
  steering: ['SERVER-CAPABILITY:READ'],
  federation: ['SERVER-CAPABILITY:READ'],
};

/** The tables, in creation order; their lists answer If-Modified-Since (deletions tracked). */
const TABLES = ['server_capability', 'server_server_capability', 'deliveryservices_required_capability'];

/** The keys referencing a capability by name: child table, its column. */
const CAPABILITY_KEYS: [child: string, column: string][] = [
  ['server_server_capability', 'server_capability'],
  ['deliveryservices_required_capability', 'required_capability'],
];

/** The keys by id that cascade into a tracked table: child table, its column, parent table. */
const ID_KEYS: [child: string, column: string, parent: string][] = [
  ['server_server_capability', 'server', 'server'],
  ['deliveryservices_required_capability', 'deliveryservice_id', 'deliveryservice'],
];

/**
 * MySQL's cascade-tracking trigger of a child table's one cascading key, named by the table alone to
 * stay within MySQL's 64 characters.
 */
const cascadeTrigger = (child: string): string => `trg_${child}_cascade`;

/**
 * Server capabilities (docs/original-behaviour.md#server-capabilities): `server_capability` keyed by
 * its name, as in the original; `server_server_capability` (a server has a capability) and
 * `deliveryservices_required_capability` (a delivery service requires one), each keyed by the pair.
 * A capability referenced by either cannot be deleted (RESTRICT); renaming it renames the references
 * (ON UPDATE CASCADE); deleting a server or a delivery service deletes its pairs (CASCADE).
 *
 * As the other tables: text columns compare byte-wise on MySQL; on SQLite each foreign key also has
 * triggers that fail with a message naming the tables (read by src/common/database/db-error.ts);
 * deletions are recorded in `last_deleted` (and on MySQL those of a cascade, by a trigger on the
 * parent); `last_updated` moves forward by at least a millisecond on each update of a capability.
 */
export class ServerCapabilities1763920000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    const text = (name: string, length?: string) =>
      lite
        ? { name, type: length ? 'varchar' : 'text', length }
        : { name, type: length ? 'varchar' : 'text', length };
    const lastUpdated = lite
      ? { name: 'last_updated', type: 'datetime', default: 'CURRENT_TIMESTAMP' }
      : {
          name: 'last_updated',
          type: 'datetime',
          precision: 6,
          default: 'CURRENT_TIMESTAMP(6)',
          onUpdate: 'CURRENT_TIMESTAMP(6)',
        };
    const capabilityKey = (table: string, column: string) =>
      new TableForeignKey({
        name: `fk_${table}__${column}`,
        columnNames: [column],
        referencedTableName: 'server_capability',
        referencedColumnNames: ['name'],
        onDelete: 'RESTRICT',
        onUpdate: 'CASCADE',
      });
    const idKey = (table: string, column: string, parent: string) =>
      new TableForeignKey({
        name: `fk_${table}__${column}`,
        columnNames: [column],
        referencedTableName: parent,
        referencedColumnNames: ['id'],
        onDelete: 'CASCADE',
        onUpdate: 'NO ACTION',
      });

    await queryRunner.createTable(
      new Table({
        name: 'server_capability',
        columns: [{ ...text('name', '255'), isPrimary: true }, text('description'), lastUpdated],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'server_server_capability',
        columns: [
          { name: 'server', type: 'integer', isPrimary: true },
          { ...text('server_capability', '255'), isPrimary: true },
          lastUpdated,
        ],
        foreignKeys: [
          idKey('server_server_capability', 'server', 'server'),
          capabilityKey('server_server_capability', 'server_capability'),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'deliveryservices_required_capability',
        columns: [
          { name: 'deliveryservice_id', type: 'integer', isPrimary: true },
          { ...text('required_capability', '255'), isPrimary: true },
          lastUpdated,
        ],
        foreignKeys: [
          idKey('deliveryservices_required_capability', 'deliveryservice_id', 'deliveryservice'),
          capabilityKey('deliveryservices_required_capability', 'required_capability'),
        ],
      }),
    );
    for (const [child, column] of CAPABILITY_KEYS) {
      await queryRunner.createIndex(
        child,
        new TableIndex({ name: `ix_${child}__${column}`, columnNames: [column] }),
      );
    }
    for (const table of TABLES) {
      await queryRunner.createIndex(
        table,
        new TableIndex({ name: `ix_${table}__last_updated`, columnNames: ['last_updated'] }),
      );
      await queryRunner.query(
        lite
          ? `CREATE TRIGGER "trg_${table}_deleted" AFTER DELETE ON "${table}" BEGIN ` +
              `INSERT INTO last_deleted (table_name, last_updated) VALUES ('${table}', strftime('%Y-%m-%d %H:%M:%f', 'now')) ` +
              'ON CONFLICT(table_name) DO UPDATE SET last_updated = excluded.last_updated; END'
          : `CREATE TRIGGER \`trg_${table}_deleted\` AFTER DELETE ON \`${table}\` FOR EACH ROW ` +
              `INSERT INTO last_deleted (table_name, last_updated) VALUES ('${table}', CURRENT_TIMESTAMP(6)) ` +
              'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
      );
    }
    await queryRunner.query(
      lite
        ? `CREATE TRIGGER "trg_server_capability_touched" AFTER UPDATE ON "server_capability" FOR EACH ROW BEGIN ` +
            `UPDATE "server_capability" SET last_updated = max(strftime('%Y-%m-%d %H:%M:%f', 'now'), ` +
            `coalesce(strftime('%Y-%m-%d %H:%M:%f', OLD.last_updated, '+0.001 seconds'), '')) ` +
            'WHERE rowid = NEW.rowid; END'
        : 'CREATE TRIGGER `trg_server_capability_touched` BEFORE UPDATE ON `server_capability` FOR EACH ROW ' +
            'SET NEW.last_updated = GREATEST(CURRENT_TIMESTAMP(6), OLD.last_updated + INTERVAL 1000 MICROSECOND)',
    );
    if (lite) {
      await this.sqliteKeyTriggers(queryRunner);
    } else {
      for (const [child, column, parent] of ID_KEYS) {
        await queryRunner.query(
          `CREATE TRIGGER \`${cascadeTrigger(child)}\` BEFORE DELETE ON \`${parent}\` FOR EACH ROW ` +
            `INSERT INTO last_deleted (table_name, last_updated) SELECT '${child}', CURRENT_TIMESTAMP(6) FROM DUAL ` +
            `WHERE EXISTS (SELECT 1 FROM \`${child}\` WHERE \`${column}\` = OLD.id) ` +
            'ON DUPLICATE KEY UPDATE last_updated = CURRENT_TIMESTAMP(6)',
        );
      }
    }
    for (const [role, permissions] of Object.entries(GRANTS)) {
      for (const permission of permissions) {
        await queryRunner.query(
          'INSERT INTO role_capability (role_id, cap_name) SELECT id, ? FROM role WHERE name = ?',
          [permission, role],
        );
      }
    }
  }

  /**
   * SQLite names no table in its foreign-key errors: triggers fail first with the message format the
   * error classifier reads, `FOREIGN KEY missing|restrict <child>.<column> -> <parent>`.
   */
  private async sqliteKeyTriggers(queryRunner: QueryRunner): Promise<void> {
    const keys: [child: string, column: string, parent: string, parentColumn: string][] = [
      ...ID_KEYS.map(([child, column, parent]): [string, string, string, string] => [
        child,
        column,
        parent,
        'id',
      ]),
      ...CAPABILITY_KEYS.map(([child, column]): [string, string, string, string] => [
        child,
        column,
        'server_capability',
        'name',
      ]),
    ];
    for (const [child, column, parent, parentColumn] of keys) {
      const name = `fk_${child}__${column}`;
      const missing = `FOREIGN KEY missing ${child}.${column} -> ${parent}`;
      const parentMissing = `NOT EXISTS (SELECT 1 FROM "${parent}" WHERE "${parentColumn}" = NEW."${column}")`;
      await queryRunner.query(
        `CREATE TRIGGER "${name}_insert" BEFORE INSERT ON "${child}" WHEN ${parentMissing} ` +
          `BEGIN SELECT RAISE(ABORT, '${missing}'); END`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "${name}_update" BEFORE UPDATE OF "${column}" ON "${child}" WHEN ${parentMissing} ` +
          `BEGIN SELECT RAISE(ABORT, '${missing}'); END`,
      );
      if (parent === 'server_capability') {
        await queryRunner.query(
          `CREATE TRIGGER "${name}_restrict" BEFORE DELETE ON "${parent}" ` +
            `WHEN EXISTS (SELECT 1 FROM "${child}" WHERE "${column}" = OLD."${parentColumn}") ` +
            `BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY restrict ${child}.${column} -> ${parent}'); END`,
        );
      }
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    const lite = sqlite(queryRunner);
    const quote = (name: string): string => (lite ? `"${name}"` : `\`${name}\``);
    await queryRunner.query(`DELETE FROM role_capability WHERE cap_name LIKE 'SERVER-CAPABILITY:%'`);
    if (lite) {
      for (const [child, column] of CAPABILITY_KEYS) {
        await queryRunner.query(`DROP TRIGGER IF EXISTS "fk_${child}__${column}_restrict"`);
      }
    } else {
      for (const [child] of ID_KEYS) {
        await queryRunner.query(`DROP TRIGGER IF EXISTS \`${cascadeTrigger(child)}\``);
      }
    }
    await queryRunner.query(`DROP TRIGGER IF EXISTS ${quote('trg_server_capability_touched')}`);
    for (const table of [...TABLES].reverse()) {
      await queryRunner.query(`DROP TRIGGER IF EXISTS ${quote(`trg_${table}_deleted`)}`);
      await queryRunner.query('DELETE FROM last_deleted WHERE table_name = ?', [table]);
      await queryRunner.dropTable(table);
    }
  }
}
