import type { DataSource, EntityManager, EntityTarget, InsertResult, ObjectLiteral } from 'typeorm';
import { getPlainOne, plainKeys, readPlain } from 'src/common/database/plain-rows';
import {
  bindParameters,
  buildInsert,
  escapeName,
  executeInsert,
  generatedId,
  hasInsertListeners,
  insertableColumns,
  insertParameters,
  runForResult,
  type ColumnMetadata,
  type EntityMetadata,
  type QueryDeepPartialEntity,
} from 'src/common/database/typeorm-adapter';

/**
 * Inserts rows without reading them back. TypeORM's `insert()` follows every INSERT with a SELECT of
 * the new rows' database defaults (`last_updated` and the like: MySQL and SQLite return no row from an
 * INSERT), which the services never use: they load what they answer afterwards. Same statement,
 * listeners and errors as `manager.insert`, one round trip fewer.
 */
export async function insertRows<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  values: QueryDeepPartialEntity<T> | QueryDeepPartialEntity<T>[],
): Promise<void> {
  if (Array.isArray(values) && values.length === 0) {
    return;
  }
  await insertWithoutReadBack(manager, target, values);
}

/** `insertRows` of one row whose primary key `id` the database generates: answers that id. */
export async function insertRow<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  values: QueryDeepPartialEntity<T>,
): Promise<number> {
  const result = await insertWithoutReadBack(manager, target, values);
  const metadata = manager.connection.getMetadata(target);
  const id = generatedId(manager.connection, metadata, result);
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new Error(`insertRow: the database answered no generated id for ${metadata.name}`);
  }
  return id;
}

/**
 * `insertRow`, answering the new row as stored (a plain row, as `getPlainOne` reads it: with its
 * database defaults such as `last_updated`), for a create that answers what it wrote. Where the
 * database has INSERT … RETURNING (SQLite; MariaDB from 10.5) that is one statement; elsewhere (MySQL)
 * the INSERT and a SELECT of the row by its id.
 */
export async function insertRowReturning<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  values: QueryDeepPartialEntity<T>,
): Promise<T> {
  const metadata = manager.connection.getMetadata(target);
  const rows = manager.createQueryBuilder<T>(target, metadata.name);
  if (await hasInsertReturning(manager.connection)) {
    const dataSource = manager.connection;
    const [sql, parameters] = insertStatement(manager, metadata, values, 'returning', (built) => {
      const returning = plainKeys(rows)
        .map(({ column, key }) => `${escapeName(dataSource, column)} AS ${escapeName(dataSource, key)}`)
        .join(', ');
      return `${built} RETURNING ${returning}`;
    });
    const [row] = readPlain(rows, await manager.query(sql, parameters));
    if (!row) {
      throw new Error(`insertRowReturning: the database answered no row for ${metadata.name}`);
    }
    return row;
  }
  return insertRowThenRead(manager, target, values);
}

/** `insertRowReturning` where the database has no INSERT … RETURNING: the INSERT, then a SELECT by id. */
export async function insertRowThenRead<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  values: QueryDeepPartialEntity<T>,
): Promise<T> {
  const metadata = manager.connection.getMetadata(target);
  const rows = manager.createQueryBuilder<T>(target, metadata.name);
  const id = await insertRow(manager, target, values);
  const row = await getPlainOne(rows.where(`${rows.alias}.id = :id`, { id }));
  if (!row) {
    throw new Error(`insertRowReturning: ${metadata.name} ${id} is not there after its INSERT`);
  }
  return row;
}

/** Whether each data source's database has INSERT … RETURNING, asked once. */
const insertReturning = new WeakMap<DataSource, Promise<boolean>>();

function hasInsertReturning(dataSource: DataSource): Promise<boolean> {
  let known = insertReturning.get(dataSource);
  if (!known) {
    known = askInsertReturning(dataSource);
    insertReturning.set(dataSource, known);
    // A failed question (the database away) is asked again next time.
    known.catch(() => insertReturning.delete(dataSource));
  }
  return known;
}

async function askInsertReturning(dataSource: DataSource): Promise<boolean> {
  if (dataSource.options.type !== 'mysql') {
    // SQLite has it from 3.35; the better-sqlite3 this service depends on bundles a later one.
    return dataSource.options.type === 'better-sqlite3';
  }
  const [row] = await dataSource.query<{ version: string }[]>('SELECT VERSION() AS version');
  const version = /^(\d+)\.(\d+)\..*mariadb/i.exec(String(row?.version));
  return version !== null && Number(version[1]) * 1000 + Number(version[2]) >= 10_005;
}

async function insertWithoutReadBack<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  values: QueryDeepPartialEntity<T> | QueryDeepPartialEntity<T>[],
): Promise<InsertResult> {
  const metadata = manager.connection.getMetadata(target);
  // Entity listeners and subscribers are called only by the query builder's `execute` (none is
  // today; the statement cache below is not used for them).
  if (hasInsertListeners(manager.connection, metadata)) {
    return executeInsert(manager, target, values);
  }
  const [sql, parameters] = insertStatement(manager, metadata, values, 'plain', (built) => built);
  // As the query builder runs it, answering the driver's whole result (the generated id is read from it).
  return runForResult(manager, sql, parameters);
}

/**
 * INSERT statements by table and shape (docs/performance.md#a-write). Building an INSERT through
 * TypeORM's query builder costs more CPU than sending it; but the statement it builds, before the
 * driver binds its parameters, depends on the row only through which columns it gives (a column left
 * undefined is written as its default), and its parameters are the given values in column order,
 * each converted by the driver (`preparePersistentValue`: booleans, dates, value transformers). So
 * each shape is built by TypeORM once and its text kept; a later row of that shape only has its
 * values converted, then bound by the driver as TypeORM binds them (`escapeQueryWithParameters`,
 * which on SQLite writes numbers into the text).
 *
 * The first build of a shape proves the rule for it: it is kept only when the parameters computed
 * that way are exactly those TypeORM built, otherwise the shape is always built by TypeORM. A value
 * that is a function (raw SQL) is never cached. With `checkInsertStatements(true)` (the tests,
 * INSERT_STATEMENTS_CHECK) every reuse is also built by TypeORM and must be identical.
 */
interface CachedInsert {
  /** The statement as TypeORM built it, its parameters named `orm_param_<n>` in order. */
  template: string;
  /** Per row, the columns whose values are its parameters, in order. */
  columns: ColumnMetadata[][];
}

/** Shapes that did not pass their first build's proof: always built by TypeORM. */
const UNCACHEABLE = 'uncacheable';
/** Beyond this many shapes per data source, new ones are built by TypeORM every time. */
const MAX_SHAPES = 2000;
const insertStatements = new WeakMap<DataSource, Map<string, CachedInsert | typeof UNCACHEABLE>>();
let checkEveryInsert = false;

/** The tests' check: every cached INSERT is also built by TypeORM, and a difference throws. */
export function checkInsertStatements(enabled: boolean): void {
  checkEveryInsert = enabled;
}

/**
 * The statement inserting `values` and its parameters, bound by the driver: from the cache, or built
 * by TypeORM; then `finish`ed (e.g. with a RETURNING clause, under the cache key's `variant`).
 */
function insertStatement<T extends ObjectLiteral>(
  manager: EntityManager,
  metadata: EntityMetadata,
  values: QueryDeepPartialEntity<T> | QueryDeepPartialEntity<T>[],
  variant: string,
  finish: (sql: string) => string,
): [string, unknown[]] {
  const dataSource = manager.connection;
  const bind = (
    template: string,
    parameters: ObjectLiteral,
    native: ObjectLiteral = {},
  ): [string, unknown[]] => {
    const [sql, bound] = bindParameters(dataSource, template, parameters, native);
    return [finish(sql), bound];
  };
  const build = () => buildInsert(manager, metadata.target, values);
  const rows = (Array.isArray(values) ? values : [values]) as ObjectLiteral[];
  // The shape: per row, which columns are given; a raw SQL value (a function) is never cached.
  let shape = `${metadata.name}|${variant}|`;
  const given: ColumnMetadata[][] = [];
  const columns = insertableColumns(metadata);
  for (const row of rows) {
    const rowGiven: ColumnMetadata[] = [];
    given.push(rowGiven);
    for (const column of columns) {
      const value: unknown = column.getEntityValue(row);
      if (typeof value === 'function') {
        const { template, parameters, native } = build();
        return bind(template, parameters, native);
      }
      if (value === undefined) {
        shape += '0';
      } else {
        shape += '1';
        rowGiven.push(column);
      }
    }
    shape += ';';
  }
  let byShape = insertStatements.get(manager.connection);
  if (!byShape) {
    byShape = new Map();
    insertStatements.set(manager.connection, byShape);
  }
  const cached = byShape.get(shape);
  if (cached === UNCACHEABLE) {
    const { template, parameters, native } = build();
    return bind(template, parameters, native);
  }
  const parameters = insertParameters(dataSource, rows, cached?.columns ?? given);
  if (cached && !checkEveryInsert) {
    return bind(cached.template, parameters);
  }
  const built = build();
  const same = Object.keys(built.native).length === 0 && sameParameters(built.parameters, parameters);
  if (cached) {
    if (!same || built.template !== cached.template) {
      throw new Error(`insert statement cache: ${metadata.name} (${shape}) differs from what TypeORM builds`);
    }
  } else if (byShape.size < MAX_SHAPES) {
    byShape.set(shape, same ? { template: built.template, columns: given } : UNCACHEABLE);
  }
  return bind(built.template, built.parameters, built.native);
}

function sameParameters(a: ObjectLiteral, b: ObjectLiteral): boolean {
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  return (
    keys.length === otherKeys.length &&
    keys.every((key, i) => key === otherKeys[i] && sameValue(a[key], b[key]))
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) {
    return true;
  }
  if (a instanceof Date && b instanceof Date) {
    return a.getTime() === b.getTime();
  }
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) {
    return a.equals(b);
  }
  return false;
}
