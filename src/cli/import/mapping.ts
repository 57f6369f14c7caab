/** A Traffic Ops schema the import reads: its release line and its last migration. */
export interface SourceVersion {
  release: '7.0' | '8.0';
  /** The source's schema_migrations version. */
  migration: string;
}

/** A row as read from the source, keyed by the target's column names. */
export type Row = Record<string, unknown>;

/** One of this service's rules a source row can break; `--check` lists the rows that do. */
export interface Rule {
  rule: string;
  broken: (row: Row) => boolean;
}

/**
 * How one resource's table is copied: a SELECT on the Traffic Ops database whose result columns
 * are the target table's columns (so every renaming, join and conversion is written in one place).
 */
export interface TableMapping {
  /** The table of this service's database. */
  table: string;
  /**
   * The Traffic Ops tables the SELECT reads: each is checked to exist before anything is read
   * (a function when they differ between releases).
   */
  from: string[] | ((version: SourceVersion) => string[]);
  select: (version: SourceVersion) => string;
  /** The columns that name the row in reports (default: id). */
  key?: string[];
  /**
   * Columns referring to the table's own id (parents): rows are written parents first, and the
   * columns are cleared before the table's rows are deleted.
   */
  parents?: string[];
  rules?: Rule[];
  /** Per-row conversion done in JavaScript (after the SELECT). */
  convert?: (row: Row) => Row;
}

/** A mapping that copies the same-named columns of the same-named table. */
export function sameColumns(
  table: string,
  columns: string[],
  extra: Omit<TableMapping, 'table' | 'from' | 'select'> & { orderBy?: string } = {},
): TableMapping {
  const { orderBy, ...rest } = extra;
  return {
    table,
    from: [table],
    select: () => `SELECT ${columns.map(quote).join(', ')} FROM ${quote(table)} ORDER BY ${orderBy ?? 'id'}`,
    ...rest,
  };
}

export function quote(name: string): string {
  return `"${name}"`;
}

/** Text of at most `max` characters (the target's column width); null passes. */
export function tooLong(column: string, max: number): Rule {
  return {
    rule: `${column} longer than ${max} characters`,
    broken: (row) => typeof row[column] === 'string' && [...row[column]].length > max,
  };
}
