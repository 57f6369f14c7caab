import type { MigrationInterface, QueryRunner } from 'typeorm';

interface ForeignKeyRow {
  tableName: string;
  name: string;
  column: string;
  referencedTable: string;
  referencedColumn: string;
  deleteRule: string;
}

/**
 * MySQL/MariaDB: every foreign key states `ON UPDATE NO ACTION`.
 *
 * The earlier migrations created foreign keys without an ON UPDATE clause. What the database then
 * records depends on the server: MySQL 8 and SQLite record NO ACTION, MariaDB records RESTRICT. The
 * entities (TypeORM's default) say NO ACTION, so on MariaDB the schema builder wanted to drop and
 * re-create every foreign key. Stating the rule makes the schema the same on every server. The
 * behaviour does not change: MySQL checks foreign keys immediately, so NO ACTION is RESTRICT (and ids
 * are never updated anyway). Nothing to do on SQLite.
 *
 * The keys of a table are dropped, then added again under the same names (one ALTER cannot do
 * both). Adding keys with foreign key checks on makes the server rebuild the table (once per table
 * here); with them off MariaDB records ON DELETE RESTRICT as NO ACTION, so they stay on.
 */
export class ForeignKeyUpdateRule1763870000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    await recreate(queryRunner, 'RESTRICT', ' ON UPDATE NO ACTION');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await recreate(queryRunner, 'NO ACTION', '');
  }
}

/** Re-creates the foreign keys of this database whose update rule is `from`, with `clause` instead. */
async function recreate(queryRunner: QueryRunner, from: string, clause: string): Promise<void> {
  if (queryRunner.connection.options.type === 'better-sqlite3') {
    return;
  }
  // One column per key here (ids); the query orders columns in case a later key has more.
  const rows = (await queryRunner.query(
    `SELECT rc.TABLE_NAME AS tableName, rc.CONSTRAINT_NAME AS name, kcu.COLUMN_NAME AS \`column\`,
            rc.REFERENCED_TABLE_NAME AS referencedTable, kcu.REFERENCED_COLUMN_NAME AS referencedColumn,
            rc.DELETE_RULE AS deleteRule
       FROM information_schema.REFERENTIAL_CONSTRAINTS rc
       JOIN information_schema.KEY_COLUMN_USAGE kcu
         ON kcu.CONSTRAINT_SCHEMA = rc.CONSTRAINT_SCHEMA AND kcu.TABLE_NAME = rc.TABLE_NAME
        AND kcu.CONSTRAINT_NAME = rc.CONSTRAINT_NAME
      WHERE rc.CONSTRAINT_SCHEMA = DATABASE() AND rc.UPDATE_RULE = ?
      ORDER BY rc.TABLE_NAME, rc.CONSTRAINT_NAME, kcu.ORDINAL_POSITION`,
    [from],
  )) as ForeignKeyRow[];
  // Per table: the keys (each its columns in order).
  const tables = new Map<string, Map<string, ForeignKeyRow[]>>();
  for (const row of rows) {
    const keys = tables.get(row.tableName) ?? new Map<string, ForeignKeyRow[]>();
    keys.set(row.name, [...(keys.get(row.name) ?? []), row]);
    tables.set(row.tableName, keys);
  }
  const list = (values: string[]): string => values.map((value) => `\`${value}\``).join(', ');
  for (const [table, keys] of tables) {
    const names = [...keys.keys()];
    await queryRunner.query(
      `ALTER TABLE \`${table}\` ${names.map((name) => `DROP FOREIGN KEY \`${name}\``).join(', ')}`,
    );
    const definitions = [...keys.entries()].map(
      ([name, columns]) =>
        `ADD CONSTRAINT \`${name}\` FOREIGN KEY (${list(columns.map((c) => c.column))}) ` +
        `REFERENCES \`${columns[0].referencedTable}\` (${list(columns.map((c) => c.referencedColumn))}) ` +
        `ON DELETE ${columns[0].deleteRule}${clause}`,
    );
    await queryRunner.query(`ALTER TABLE \`${table}\` ${definitions.join(', ')}`);
  }
}
