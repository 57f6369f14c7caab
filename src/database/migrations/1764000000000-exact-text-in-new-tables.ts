import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The same conversion as 1763830000000, for the tables added since (server capabilities, service
 * categories, coordinates, origins' references, delivery-service requests and comments) whose
 * migrations named `utf8mb4_bin`: every text column exact and NO PAD again.
 * The PAD SPACE binary collation the earlier migrations gave every MySQL text column. */
const PAD_SPACE_BINARY = 'utf8mb4_bin';

interface TextColumn {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
  /** information_schema's COLUMN_DEFAULT as the server reports it (see `defaultClause`). */
  columnDefault: string | null;
  extra: string;
  comment: string;
  generated: string | null;
}

/**
 * Text comparisons that decide identity or uniqueness must be exact on every database. MySQL's and
 * MariaDB's `utf8mb4_bin` is a PAD SPACE collation: it compares `'admin '` equal to `'admin'`, so
 * `WHERE username = 'admin '` finds the user `admin`, and a unique index refuses `'cdn1 '` next to
 * `'cdn1'`. This converts every such column to the NO PAD binary collation of the server —
 * `utf8mb4_nopad_bin` on MariaDB, `utf8mb4_0900_bin` on MySQL 8.0.17 and later — which compares
 * bytes exactly, as SQLite's BINARY already does (nothing to do there). The tables' and the
 * database's default collation become the same, so that a table or column added later without an
 * explicit collation compares exactly too; a later migration that names a collation must name
 * this one (a new MySQL text column must never use `utf8mb4_bin`).
 *
 * The columns are found in information_schema rather than listed, so the conversion covers every
 * table the earlier migrations created. Every converted column gets the same collation, so indexes
 * and foreign keys between text columns stay consistent (foreign key checks are off while the
 * columns are altered, as each ALTER briefly leaves the two sides of such a key different).
 */
export class ExactTextInNewTables1764000000000 implements MigrationInterface {
  public async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      return;
    }
    const server = await mysqlServer(queryRunner);
    await convert(queryRunner, server, PAD_SPACE_BINARY, server.noPadBinary);
    // Every table's default too, those without text columns included: a database migrated afresh
    // (whose earlier tables take the database's default, NO PAD once this ran) ends up the same.
    const tables = (await queryRunner.query(
      "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'",
    )) as { name: string }[];
    for (const { name } of tables) {
      await queryRunner.query(
        `ALTER TABLE ${quoteName(name)} DEFAULT CHARACTER SET utf8mb4 COLLATE ${server.noPadBinary}`,
      );
    }
    await queryRunner.query(`ALTER DATABASE CHARACTER SET utf8mb4 COLLATE ${server.noPadBinary}`);
  }

  /**
   * Nothing to undo: this only brings columns created `utf8mb4_bin` by the migrations of the same
   * release to the NO PAD collation every text column must have (docs/decisions.md#d29).
   */
  public async down(): Promise<void> {}
}

interface MysqlServer {
  mariadb: boolean;
  noPadBinary: string;
}

/** MariaDB or MySQL, told apart by `SELECT VERSION()`; the collation must exist on this server. */
async function mysqlServer(queryRunner: QueryRunner): Promise<MysqlServer> {
  const [{ version }] = (await queryRunner.query('SELECT VERSION() AS version')) as { version: string }[];
  const mariadb = /mariadb/i.test(version);
  const collation = mariadb ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin';
  const found = (await queryRunner.query(
    'SELECT COLLATION_NAME AS name FROM information_schema.COLLATIONS WHERE COLLATION_NAME = ?',
    [collation],
  )) as unknown[];
  if (found.length === 0) {
    throw new Error(
      `this server (${version}) has no ${collation} collation: exact text comparison needs ` +
        'MariaDB 10.2 or later, or MySQL 8.0.17 or later',
    );
  }
  return { mariadb, noPadBinary: collation };
}

async function convert(
  queryRunner: QueryRunner,
  server: MysqlServer,
  from: string,
  to: string,
): Promise<void> {
  const rows = (await queryRunner.query(
    'SELECT c.TABLE_NAME AS `table`, c.COLUMN_NAME AS `column`, c.COLUMN_TYPE AS type, ' +
      "c.IS_NULLABLE = 'YES' AS nullable, c.COLUMN_DEFAULT AS columnDefault, c.EXTRA AS extra, " +
      'c.COLUMN_COMMENT AS comment, c.GENERATION_EXPRESSION AS generated ' +
      'FROM information_schema.COLUMNS c JOIN information_schema.TABLES t ' +
      'ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME ' +
      "WHERE c.TABLE_SCHEMA = DATABASE() AND t.TABLE_TYPE = 'BASE TABLE' AND c.COLLATION_NAME = ? " +
      'ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION',
    [from],
  )) as (Omit<TextColumn, 'nullable'> & { nullable: number | string })[];
  const byTable = new Map<string, TextColumn[]>();
  for (const row of rows) {
    const column: TextColumn = { ...row, nullable: Number(row.nullable) === 1 };
    byTable.set(column.table, [...(byTable.get(column.table) ?? []), column]);
  }
  const [{ checks }] = (await queryRunner.query('SELECT @@SESSION.foreign_key_checks AS checks')) as {
    checks: number | string;
  }[];
  await queryRunner.query('SET SESSION foreign_key_checks = 0');
  try {
    for (const [table, columns] of byTable) {
      const modifications = columns.map((column) => `MODIFY ${definition(column, to, server.mariadb)}`);
      await queryRunner.query(
        `ALTER TABLE ${quoteName(table)} DEFAULT CHARACTER SET utf8mb4 COLLATE ${to}, ${modifications.join(', ')}`,
      );
    }
  } finally {
    await queryRunner.query(`SET SESSION foreign_key_checks = ${Number(checks) === 0 ? 0 : 1}`);
  }
}

/** The column's definition as it is, with the new collation. */
function definition(column: TextColumn, collation: string, mariadb: boolean): string {
  if (column.generated) {
    throw new Error(`${column.table}.${column.column} is a generated column; convert it by hand`);
  }
  const comment = column.comment ? ` COMMENT ${quoteString(column.comment)}` : '';
  return (
    `${quoteName(column.column)} ${column.type} CHARACTER SET utf8mb4 COLLATE ${collation} ` +
    `${column.nullable ? 'NULL' : 'NOT NULL'}${defaultClause(column, mariadb)}${comment}`
  );
}

/**
 * MariaDB reports a default as SQL (`NULL`, `'text'`, an expression); MySQL reports a literal's
 * value unquoted and marks an expression default DEFAULT_GENERATED. No default at all is NULL.
 */
function defaultClause(column: TextColumn, mariadb: boolean): string {
  if (column.columnDefault === null) {
    return '';
  }
  if (mariadb) {
    return ` DEFAULT ${column.columnDefault}`;
  }
  return /DEFAULT_GENERATED/i.test(column.extra)
    ? ` DEFAULT (${column.columnDefault})`
    : ` DEFAULT ${quoteString(column.columnDefault)}`;
}

function quoteName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

function quoteString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
