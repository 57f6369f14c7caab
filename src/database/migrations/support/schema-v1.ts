import { createHash } from 'node:crypto';
import { Table, TableForeignKey, type QueryRunner, type TableColumnOptions } from 'typeorm';

/**
 * FROZEN — version 1 of the column and table builders used by the migrations up to 1763820000000,
 * so that one migration produces the same schema on MySQL and on SQLite.
 *
 * Never change this file: migrations that have already run on installations call it, and a fresh
 * `migration:run` (or a `migration:revert` followed by `migration:run`) must produce exactly the
 * schema those installations have. A later schema change that needs different builders copies this
 * file to `schema-v2.ts` and changes the copy, or writes its SQL per dialect inside the migration.
 * Only migrations import this file (lint enforces it); the application never does. See
 * docs/database.md.
 */

export function isSqlite(queryRunner: QueryRunner): boolean {
  return queryRunner.connection.options.type === 'better-sqlite3';
}

export function idColumn(): TableColumnOptions {
  return { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
}

/** `last_updated`, set by the database on insert and by TypeORM on every update. */
export function lastUpdatedColumn(queryRunner: QueryRunner): TableColumnOptions {
  return isSqlite(queryRunner)
    ? { name: 'last_updated', type: 'datetime', default: 'CURRENT_TIMESTAMP' }
    : { name: 'last_updated', type: 'datetime', precision: 6, default: 'CURRENT_TIMESTAMP(6)' };
}

export function timestampColumn(
  queryRunner: QueryRunner,
  name: string,
  isNullable = true,
): TableColumnOptions {
  return isSqlite(queryRunner)
    ? { name, type: 'datetime', isNullable }
    : { name, type: 'datetime', precision: 6, isNullable };
}

const TEXT_TYPES = new Set(['varchar', 'text', 'char']);

/**
 * MySQL text columns compare and sort byte-wise (utf8mb4_bin), as SQLite and the original's
 * PostgreSQL do: names are case-sensitive and lists order the same on both databases.
 */
function binaryCollation(column: TableColumnOptions): TableColumnOptions {
  return TEXT_TYPES.has(column.type) ? { charset: 'utf8mb4', collation: 'utf8mb4_bin', ...column } : column;
}

/**
 * MySQL identifiers have at most 64 characters. Longer names become `<kind>_h_<digest>`, which the
 * error classifier does not parse: their violations are reported by table (from the statement).
 */
function identifier(kind: 'uq' | 'fk', name: string): string {
  const full = `${kind}_${name}`;
  return full.length <= 64 ? full : `${kind}_h_${createHash('sha1').update(full).digest('hex').slice(0, 40)}`;
}

export function uniqueIndexName(table: string, columns: string[]): string {
  return identifier('uq', `${table}__${columns.join('__')}`);
}

export function foreignKeyName(table: string, column: string): string {
  return identifier('fk', `${table}__${column}`);
}

export interface ForeignKeySpec {
  column: string;
  references: string;
  onDelete: 'RESTRICT' | 'CASCADE' | 'SET NULL';
}

export interface TableSpec {
  name: string;
  columns: TableColumnOptions[];
  unique?: string[][];
  indices?: string[][];
  foreignKeys?: ForeignKeySpec[];
}

/**
 * Creates a table with named unique indexes and foreign keys. MySQL names the violated constraint
 * and the referenced table in its errors; SQLite does not, so on SQLite each foreign key also gets
 * triggers that fail with a message in the same terms (parsed by db-error.ts).
 */
export async function createTable(queryRunner: QueryRunner, spec: TableSpec): Promise<void> {
  await queryRunner.createTable(
    new Table({
      name: spec.name,
      columns: isSqlite(queryRunner) ? spec.columns : spec.columns.map(binaryCollation),
      uniques: (spec.unique ?? []).map((columnNames) => ({
        name: uniqueIndexName(spec.name, columnNames),
        columnNames,
      })),
      indices: (spec.indices ?? []).map((columnNames) => ({
        name: `ix_${spec.name}__${columnNames.join('__')}`,
        columnNames,
      })),
      foreignKeys: (spec.foreignKeys ?? []).map(
        (fk) =>
          new TableForeignKey({
            name: foreignKeyName(spec.name, fk.column),
            columnNames: [fk.column],
            referencedTableName: fk.references,
            referencedColumnNames: ['id'],
            onDelete: fk.onDelete,
          }),
      ),
    }),
  );
  if (isSqlite(queryRunner)) {
    for (const fk of spec.foreignKeys ?? []) {
      await createSqliteForeignKeyTriggers(queryRunner, spec.name, fk);
    }
  }
}

/** Drops a table; on SQLite also the restrict triggers it left on the tables it references. */
export async function dropTable(queryRunner: QueryRunner, name: string): Promise<void> {
  if (isSqlite(queryRunner)) {
    const triggers = (await queryRunner.query(
      `SELECT name FROM sqlite_master WHERE type = 'trigger' AND name GLOB ?`,
      [`fk_${name}__*_restrict`],
    )) as { name: string }[];
    for (const trigger of triggers) {
      await queryRunner.query(`DROP TRIGGER "${trigger.name}"`);
    }
  }
  await queryRunner.dropTable(name);
}

/** The message format shared with db-error.ts: `FOREIGN KEY <kind> <child table>.<column> -> <parent table>`. */
export function sqliteForeignKeyMessage(
  kind: 'missing' | 'restrict',
  table: string,
  fk: ForeignKeySpec,
): string {
  return `FOREIGN KEY ${kind} ${table}.${fk.column} -> ${fk.references}`;
}

async function createSqliteForeignKeyTriggers(
  queryRunner: QueryRunner,
  table: string,
  fk: ForeignKeySpec,
): Promise<void> {
  // SQLite names have no length limit: trigger names stay readable (and findable by dropTable).
  const name = `fk_${table}__${fk.column}`;
  const missing = sqliteForeignKeyMessage('missing', table, fk);
  const parentMissing = `NEW."${fk.column}" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "${fk.references}" WHERE id = NEW."${fk.column}")`;
  await queryRunner.query(
    `CREATE TRIGGER "${name}_insert" BEFORE INSERT ON "${table}" WHEN ${parentMissing} ` +
      `BEGIN SELECT RAISE(ABORT, '${missing}'); END`,
  );
  await queryRunner.query(
    `CREATE TRIGGER "${name}_update" BEFORE UPDATE OF "${fk.column}" ON "${table}" WHEN ${parentMissing} ` +
      `BEGIN SELECT RAISE(ABORT, '${missing}'); END`,
  );
  if (fk.onDelete === 'RESTRICT') {
    await queryRunner.query(
      `CREATE TRIGGER "${name}_restrict" BEFORE DELETE ON "${fk.references}" ` +
        `WHEN EXISTS (SELECT 1 FROM "${table}" WHERE "${fk.column}" = OLD.id) ` +
        `BEGIN SELECT RAISE(ABORT, '${sqliteForeignKeyMessage('restrict', table, fk)}'); END`,
    );
  }
}
