import type { ColumnOptions } from 'typeorm';
import { MYSQL_BOOLEAN_WIDTH } from 'src/common/database/typeorm-adapter';

/**
 * Column declarations for the parts of the schema that the migrations write differently on each
 * database, so that the entities describe the real schema on both (docs/database.md): TypeORM's
 * schema builder — and so `migration:generate` — then finds nothing to change.
 *
 * The migrations gave booleans the default `false`/`true` on SQLite and `0`/`1` on MySQL, and
 * `last_updated` the default `CURRENT_TIMESTAMP` on SQLite and `CURRENT_TIMESTAMP(6)` on MySQL. One
 * literal cannot describe both, so those defaults are functions (TypeORM's form for an SQL
 * expression) that answer the SQL of the dialect this process's DataSource options were built for.
 * TypeORM calls them when it compares the schema and, on SQLite, when an insert leaves the column
 * out (SQLite has no DEFAULT keyword in INSERT); the value written is the same as the database's
 * own default.
 */
export type Dialect = 'mysql' | 'sqlite';

let current: Dialect | undefined;

/** Records the dialect of this process's DataSource options (called by buildTypeOrmOptions). */
export function useDialect(dialect: Dialect): void {
  current = dialect;
}

/** A column default whose SQL differs by dialect. */
export function dialectDefault(sql: Record<Dialect, string>): () => string {
  return () => {
    if (!current) {
      throw new Error('The database dialect is unknown: build DataSource options with buildTypeOrmOptions()');
    }
    return sql[current];
  };
}

const FALSE = dialectDefault({ mysql: '0', sqlite: 'false' });
const TRUE = dialectDefault({ mysql: '1', sqlite: 'true' });

/**
 * A BOOLEAN column as the migrations create it: TINYINT(1) on MySQL (the adapter's width), with the default
 * when it has one.
 */
export function booleanColumn(
  options: Omit<ColumnOptions, 'default'> & { default?: boolean } = {},
): ColumnOptions {
  const { default: value, ...rest } = options;
  return {
    type: 'boolean',
    ...MYSQL_BOOLEAN_WIDTH,
    ...rest,
    ...(value === undefined ? {} : { default: value ? TRUE : FALSE }),
  };
}

/**
 * `last_updated` of a table (for `@UpdateDateColumn`, or `@CreateDateColumn` on an append-only
 * table): DATETIME(6) on MySQL (TypeORM's default precision for these columns there; none on
 * SQLite), set by the database on insert. On update TypeORM writes it; on MySQL the column also has
 * `ON UPDATE CURRENT_TIMESTAMP(6)`, which TypeORM declares for every update-date column.
 */
export const LAST_UPDATED: ColumnOptions = {
  name: 'last_updated',
  type: 'datetime',
  default: dialectDefault({ mysql: 'CURRENT_TIMESTAMP(6)', sqlite: 'CURRENT_TIMESTAMP' }),
};

/**
 * A DATETIME column other than `last_updated`: DATETIME(6) on MySQL, DATETIME on SQLite. No
 * `precision` is declared because it differs by dialect; TypeORM compares a column's precision only
 * when the entity declares one, and it never creates these columns (the migrations do).
 */
export function datetimeColumn(options: ColumnOptions = {}): ColumnOptions {
  return { type: 'datetime', ...options };
}
