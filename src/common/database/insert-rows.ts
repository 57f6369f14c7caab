import type { DataSource, EntityManager, EntityTarget, InsertResult, ObjectLiteral } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { getPlainOne, plainKeys, readPlain } from 'src/common/database/plain-rows';

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
  // How the driver reads the generated key from its INSERT result (MySQL's insertId, SQLite's last row id).
  const generated = manager.connection.driver.createGeneratedMap(metadata, result.raw, 0, 1) as
    { id?: unknown } | undefined;
  const id = Number(generated?.id);
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
    const driver = manager.connection.driver;
    const [sql, parameters] = manager
      .createQueryBuilder()
      .insert()
      .into(target)
      .values(values)
      .updateEntity(false)
      .getQueryAndParameters();
    const returning = plainKeys(rows)
      .map(({ column, key }) => `${driver.escape(column)} AS ${driver.escape(key)}`)
      .join(', ');
    const [row] = readPlain(rows, await manager.query(`${sql} RETURNING ${returning}`, parameters));
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

function insertWithoutReadBack<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  values: QueryDeepPartialEntity<T> | QueryDeepPartialEntity<T>[],
): Promise<InsertResult> {
  return manager.createQueryBuilder().insert().into(target).values(values).updateEntity(false).execute();
}
