import { DataSource, type TableColumn } from 'typeorm';
import type { ColumnMetadata } from 'src/common/database/typeorm-adapter';
import type { DatabaseConfig } from 'src/config/database.env';
import { withServerFlavour } from 'src/database/server-flavour';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';

/**
 * A DataSource for comparing the schema with the entities: the app's options, told whether a MySQL
 * server is MariaDB (see src/database/server-flavour.ts), as the TypeORM CLI's are.
 */
export async function schemaDataSource(config: DatabaseConfig): Promise<DataSource> {
  return new DataSource(await withServerFlavour(buildTypeOrmOptions(config)));
}

/**
 * What TypeORM's schema builder would change to make the database match the entities — the
 * statements `migration:generate` would write. Empty when entities and migrations agree.
 */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return log.upQueries.map((query) => query.query);
}

/**
 * A failure message that says what disagrees, column by column and key by key, then the statements
 * TypeORM would run.
 */
export async function describePendingChanges(dataSource: DataSource, pending: string[]): Promise<string> {
  return [
    `The entities (src/modules/**/*.entity.ts) and the migrations disagree on ${dataSource.options.type}.`,
    'Differences (database = what the migrations created, entity = what the entity declares):',
    ...(await schemaDifferences(dataSource)).map((line) => `  - ${line}`),
    `TypeORM's schema builder (what migration:generate writes) wants ${pending.length} statement(s):`,
    ...pending.map((query, index) => `  ${index + 1}. ${query}`),
    'Declare in the entity exactly what the migration created (names, types, lengths, nullability, ' +
      'defaults, indexes, unique and foreign keys), or fix the schema with a new migration; see docs/database.md.',
  ].join('\n');
}

/** The driver methods the schema builder compares with (not all are on TypeORM's Driver type). */
interface ComparingDriver {
  findChangedColumns(tableColumns: TableColumn[], columns: ColumnMetadata[]): ColumnMetadata[];
  normalizeType(column: ColumnMetadata): string;
  normalizeDefault(column: ColumnMetadata): string | undefined;
  normalizeIsUnique(column: ColumnMetadata): boolean;
  getColumnLength?(column: ColumnMetadata): string;
  normalizeDatetimeFunction?(value: string | undefined): string | undefined;
}

/** Per table, what the schema builder sees differently in the database and in the entity. */
async function schemaDifferences(dataSource: DataSource): Promise<string[]> {
  const driver = dataSource.driver as unknown as ComparingDriver;
  const queryRunner = dataSource.createQueryRunner();
  const lines: string[] = [];
  try {
    for (const entity of dataSource.entityMetadatas) {
      const table = await queryRunner.getTable(entity.tablePath);
      if (!table) {
        lines.push(`${entity.tableName}: no such table`);
        continue;
      }
      for (const column of entity.columns) {
        if (!table.columns.some((c) => c.name === column.databaseName)) {
          lines.push(`${entity.tableName}.${column.databaseName}: no such column`);
        }
      }
      for (const column of table.columns) {
        if (!entity.columns.some((c) => c.databaseName === column.name)) {
          lines.push(`${entity.tableName}.${column.name}: not in the entity`);
        }
      }
      for (const column of driver.findChangedColumns(table.columns, entity.columns)) {
        const dbColumn = table.columns.find((c) => c.name === column.databaseName)!;
        const declared: Record<string, unknown> = {
          type: driver.normalizeType(column),
          length: driver.getColumnLength ? driver.getColumnLength(column) : column.length,
          precision: column.precision,
          scale: column.scale,
          default: driver.normalizeDefault(column),
          isNullable: column.isNullable,
          isUnique: driver.normalizeIsUnique(column),
          isPrimary: column.isPrimary,
          isGenerated: column.isGenerated,
          // Compared on MySQL only.
          ...(driver.normalizeDatetimeFunction
            ? { width: column.width, onUpdate: driver.normalizeDatetimeFunction(column.onUpdate) }
            : {}),
        };
        const actual = dbColumn as unknown as Record<string, unknown>;
        const differing = Object.keys(declared).filter(
          (key) => comparable(actual[key]) !== comparable(declared[key]),
        );
        lines.push(
          `${entity.tableName}.${column.databaseName}: ` +
            (differing
              .map((key) => `${key} database=${show(actual[key])} entity=${show(declared[key])}`)
              .join(', ') || 'changed (quoting of the default only)'),
        );
      }
      const compare = (kind: string, inDatabase: string[], inEntity: string[]): void => {
        const onlyDatabase = inDatabase.filter((x) => !inEntity.includes(x));
        const onlyEntity = inEntity.filter((x) => !inDatabase.includes(x));
        if (onlyDatabase.length > 0 || onlyEntity.length > 0) {
          lines.push(
            `${entity.tableName} ${kind}: database only [${onlyDatabase.join('; ')}], entity only [${onlyEntity.join('; ')}]`,
          );
        }
      };
      compare(
        'indexes',
        table.indices.map((i) => `${i.name}(${i.columnNames.join(',')})${i.isUnique ? ' unique' : ''}`),
        entity.indices.map(
          (i) => `${i.name}(${i.columns.map((c) => c.databaseName).join(',')})${i.isUnique ? ' unique' : ''}`,
        ),
      );
      compare(
        'unique constraints',
        table.uniques.map((u) => `${u.name}(${u.columnNames.join(',')})`),
        entity.uniques.map((u) => `${u.name}(${u.columns.map((c) => c.databaseName).join(',')})`),
      );
      compare(
        'foreign keys',
        table.foreignKeys.map(
          (f) =>
            `${f.name}(${f.columnNames.join(',')}) -> ${f.referencedTableName} ON DELETE ${f.onDelete} ON UPDATE ${f.onUpdate}`,
        ),
        entity.foreignKeys.map(
          (f) =>
            `${f.name}(${f.columnNames.join(',')}) -> ${f.referencedTablePath} ON DELETE ${f.onDelete} ON UPDATE ${f.onUpdate}`,
        ),
      );
    }
  } finally {
    await queryRunner.release();
  }
  return lines;
}

/** A value as the schema builder compares it: no value and '' alike, quotes around defaults ignored. */
function comparable(value: unknown): string {
  if (value === undefined || value === null) {
    return '';
  }
  return typeof value === 'string' ? value.replace(/^'+|'+$/g, '') : JSON.stringify(value);
}

function show(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}

/**
 * The schema as text, for comparing two databases: `SHOW CREATE TABLE` of every table and the
 * triggers on MySQL, `sqlite_master` on SQLite. Auto-increment counters are left out (the
 * migrations table's grows with every run).
 */
export async function schemaDump(dataSource: DataSource): Promise<string> {
  if (dataSource.options.type === 'better-sqlite3') {
    const rows = await dataSource.query<
      { type: string; name: string; tableName: string; sql: string | null }[]
    >(
      "SELECT type, name, tbl_name AS tableName, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
    );
    return rows.map((row) => `${row.type} ${row.name} ON ${row.tableName}\n${row.sql ?? ''}`).join('\n\n');
  }
  const tables = await dataSource.query<{ name: string }[]>(
    "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME",
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const [row] = await dataSource.query<Record<string, string>[]>(`SHOW CREATE TABLE \`${name}\``);
    parts.push(row['Create Table'].replace(/ AUTO_INCREMENT=\d+/, ''));
  }
  const triggers = await dataSource.query<
    { name: string; event: string; timing: string; tableName: string; statement: string }[]
  >(
    'SELECT TRIGGER_NAME AS name, EVENT_MANIPULATION AS event, ACTION_TIMING AS timing, ' +
      'EVENT_OBJECT_TABLE AS tableName, ACTION_STATEMENT AS statement FROM information_schema.TRIGGERS ' +
      'WHERE TRIGGER_SCHEMA = DATABASE() ORDER BY TRIGGER_NAME',
  );
  for (const t of triggers) {
    parts.push(`TRIGGER ${t.name} ${t.timing} ${t.event} ON ${t.tableName}: ${t.statement}`);
  }
  return parts.join('\n\n');
}

/** The tables and triggers left in the database, other than the migrations table. */
export async function schemaObjects(dataSource: DataSource, migrationsTable: string): Promise<string[]> {
  const rows = await dataSource.query<{ object: string }[]>(
    dataSource.options.type === 'better-sqlite3'
      ? "SELECT type || ' ' || name AS object FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
      : "SELECT CONCAT('table ', TABLE_NAME) AS object FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() " +
          "UNION ALL SELECT CONCAT('trigger ', TRIGGER_NAME) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE()",
  );
  return rows
    .map((row) => row.object)
    .filter((object) => object !== `table ${migrationsTable}`)
    .sort();
}
