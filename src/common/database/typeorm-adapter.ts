/**
 * The one file that reaches into TypeORM below its public API (src/common/database/README.md): the
 * protected runner of a query builder, its expression map, `DriverUtils`' alias naming, the driver's
 * value conversions and parameter binding, the `orm_param_<n>` names of the query builder's
 * parameters, the generated-key map of an INSERT result and the query runner classes. The fast
 * paths (plain-rows.ts, insert-rows.ts) and the statement tracing are written against what this file
 * exports, so that a TypeORM upgrade is checked and adapted here
 * (`npm run test:typeorm-latest` runs this folder's tests against the latest release). Lint refuses
 * these internals anywhere else (eslint.config.mjs, "TypeORM internals").
 */
import type { PoolConnection, RowDataPacket } from 'mysql2';
import {
  type ColumnOptions,
  InsertResult,
  QueryFailedError,
  type DataSource,
  type EntityManager,
  type EntityTarget,
  type ObjectLiteral,
  type QueryRunner,
  type SelectQueryBuilder,
} from 'typeorm';
import { BetterSqlite3QueryRunner } from 'typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner';
import { DriverUtils } from 'typeorm/driver/DriverUtils';
import { MysqlQueryRunner } from 'typeorm/driver/mysql/MysqlQueryRunner';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { traceStatement } from 'src/common/tracing/tracing';

export type { ColumnMetadata, EntityMetadata, QueryDeepPartialEntity };

// ---------------------------------------------------------------------------------------------
// Column options that differ between TypeORM releases

/**
 * What makes a `boolean` column TINYINT(1) on MySQL, as the migrations create it: `width: 1` on the
 * pinned release. TypeORM 1.x's ColumnOptions have no `width`: an upgrade changes it here (to what
 * that release reads as the display width, or to nothing if its schema comparison no longer looks at
 * one), not in the entities.
 */
export const MYSQL_BOOLEAN_WIDTH: Pick<ColumnOptions, 'width'> = { width: 1 };

// ---------------------------------------------------------------------------------------------
// Reading a SELECT query builder

/** One selected join of a query builder, as the plain-row reader needs it. */
export interface SelectedJoin {
  alias: string;
  parentAlias: string | undefined;
  /** The relation's property on the parent, when the join follows a relation. */
  relationProperty: string | undefined;
  /** Whether the join maps to a property of its own (`leftJoinAndMapOne`) or is to-many. */
  mapsOrMany: boolean;
  columns: ColumnMetadata[] | undefined;
}

/** What a SELECT query builder selects: its main alias, its selected joins, the selected names. */
export interface SelectShape {
  /** The main alias and its entity, when the query builder is on an entity. */
  main: { alias: string; entityName: string; columns: ColumnMetadata[] } | undefined;
  joins: SelectedJoin[];
  /** Whether any join (selected or not) is present. */
  hasJoins: boolean;
  /** The names selected whole (`alias`) or in part (`alias.property`). */
  selections: Set<string>;
  /** Whether the query has a lock, a transaction of its own or a result cache. */
  locksOrCaches: boolean;
}

/** What `qb` selects, read from its expression map. */
export function selectShape<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): SelectShape {
  const map = qb.expressionMap;
  const main = map.mainAlias;
  return {
    main: main?.hasMetadata
      ? { alias: main.name, entityName: main.metadata.name, columns: main.metadata.columns }
      : undefined,
    joins: map.joinAttributes
      .filter((join) => join.isSelected)
      .map((join) => ({
        alias: join.alias.name,
        parentAlias: join.parentAlias,
        relationProperty: join.relation?.propertyName,
        mapsOrMany: Boolean(join.mapToProperty) || join.isMany,
        columns: join.relation ? join.metadata?.columns : undefined,
      })),
    hasJoins: map.joinAttributes.length > 0,
    selections: new Set(map.selects.map((select) => select.selection)),
    locksOrCaches: map.lockMode !== undefined || map.useTransaction || Boolean(map.cache),
  };
}

/** The key under which TypeORM's raw rows hold `alias`'s column `column` (`alias_column`, shortened). */
export function rawKey(dataSource: DataSource, alias: string, column: string): string {
  return DriverUtils.buildAlias(dataSource.driver, undefined, alias, column);
}

/** A column's value as read from the database, converted as TypeORM converts it into an entity. */
export function hydrator(dataSource: DataSource): (value: unknown, column: ColumnMetadata) => unknown {
  const driver = dataSource.driver;
  return (value, column) => driver.prepareHydratedValue(value, column) as unknown;
}

/** The runner a query builder was made with (a transaction's), which TypeORM keeps protected. */
function ownRunner<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): QueryRunner | undefined {
  return (qb as unknown as { queryRunner?: QueryRunner }).queryRunner;
}

/**
 * The rows of `qb` as arrays, with the name of each result column, on MySQL: the statement and
 * parameters `getRawMany` would send, on the connection it would use (the query builder's own runner,
 * e.g. a transaction's, or one taken from the pool for this statement and given back after it).
 * mysql2 takes `rowsAsArray` only per statement, which TypeORM's runner does not pass on, so the
 * statement goes to the runner's connection directly; the connection's statement timeout (the
 * wrapped `query`, src/database/typeorm-options.ts) applies all the same, TypeORM's logger sees the
 * statement (and its failure) as it sees its own, and a failure is a `QueryFailedError` carrying the
 * driver's error, as TypeORM reports it.
 */
export async function mysqlRowsAsArrays<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
): Promise<{ rows: unknown[][]; columns: string[] }> {
  const [sql, parameters] = qb.getQueryAndParameters();
  const own = ownRunner(qb);
  const runner = own ?? qb.connection.createQueryRunner(qb.connection.defaultReplicationModeForReads());
  try {
    const connection = (await runner.connect()) as PoolConnection;
    const logger = qb.connection.logger;
    logger.logQuery(sql, parameters, runner);
    return await traceStatement<{ rows: unknown[][]; columns: string[] }>(
      'mysql',
      sql,
      () =>
        new Promise((resolve, reject) => {
          connection.query<RowDataPacket[][]>(
            { sql, values: parameters, rowsAsArray: true },
            (error, rows, fields) => {
              if (error) {
                logger.logQueryError(error, sql, parameters, runner);
                reject(new QueryFailedError(sql, parameters, error));
              } else {
                resolve({ rows, columns: fields.map((field) => field.name) });
              }
            },
          );
        }),
    );
  } finally {
    if (runner !== own) {
      await runner.release();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Building and sending an INSERT

/** The columns an INSERT may give values for, as TypeORM's query builder chooses them. */
export function insertableColumns(metadata: EntityMetadata): ColumnMetadata[] {
  return metadata.columns.filter((column) => column.isInsert && !column.isVirtual);
}

/**
 * Whether inserting into `metadata`'s table calls entity listeners or subscribers, which only the
 * query builder's `execute` calls.
 */
export function hasInsertListeners(dataSource: DataSource, metadata: EntityMetadata): boolean {
  return (
    metadata.beforeInsertListeners.length > 0 ||
    metadata.afterInsertListeners.length > 0 ||
    dataSource.subscribers.some((subscriber) => 'beforeInsert' in subscriber || 'afterInsert' in subscriber)
  );
}

/** An INSERT as TypeORM's query builder builds it, before the driver binds its parameters. */
export interface BuiltInsert {
  template: string;
  parameters: ObjectLiteral;
  native: ObjectLiteral;
}

/** The INSERT of `values` into `target` as TypeORM's query builder builds it (no read-back). */
export function buildInsert<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  values: QueryDeepPartialEntity<T> | QueryDeepPartialEntity<T>[],
): BuiltInsert {
  const qb = manager.createQueryBuilder().insert().into(target).values(values).updateEntity(false);
  return {
    template: qb.getQuery(),
    parameters: qb.getParameters(),
    // TypeORM 0.3 keeps raw driver parameters apart (`nativeParameters`); 1.x has none.
    native: (qb.expressionMap as { nativeParameters?: ObjectLiteral }).nativeParameters ?? {},
  };
}

/** The same INSERT run by TypeORM's query builder (which calls listeners and subscribers). */
export function executeInsert<T extends ObjectLiteral>(
  manager: EntityManager,
  target: EntityTarget<T>,
  values: QueryDeepPartialEntity<T> | QueryDeepPartialEntity<T>[],
): Promise<InsertResult> {
  return manager.createQueryBuilder().insert().into(target).values(values).updateEntity(false).execute();
}

/**
 * The parameters TypeORM's query builder gives an INSERT of `rows` whose given columns are `given`
 * (per row, in column order): each value converted by the driver (`preparePersistentValue`: booleans,
 * dates, value transformers), named `orm_param_<n>` in order, as the query builder names them.
 */
export function insertParameters(
  dataSource: DataSource,
  rows: readonly ObjectLiteral[],
  given: readonly ColumnMetadata[][],
): ObjectLiteral {
  const driver = dataSource.driver;
  const parameters: ObjectLiteral = {};
  let n = 0;
  for (let row = 0; row < rows.length; row++) {
    for (const column of given[row]) {
      const value: unknown = driver.preparePersistentValue(column.getEntityValue(rows[row]), column);
      parameters[`orm_param_${n++}`] = value;
    }
  }
  return parameters;
}

/** `template` with its named parameters bound as the driver binds them: the text and its values. */
export function bindParameters(
  dataSource: DataSource,
  template: string,
  parameters: ObjectLiteral,
  native: ObjectLiteral = {},
): [string, unknown[]] {
  // TypeORM 0.3 takes the native parameters as a third argument; 1.x takes two (and has none).
  const driver = dataSource.driver as unknown as {
    escapeQueryWithParameters(
      sql: string,
      parameters: ObjectLiteral,
      native: ObjectLiteral,
    ): [string, unknown[]];
  };
  return driver.escapeQueryWithParameters(template, parameters, native);
}

/** A column or alias name quoted for the database. */
export function escapeName(dataSource: DataSource, name: string): string {
  return dataSource.driver.escape(name);
}

/**
 * Runs a bound statement as the query builder runs an INSERT: on the manager's runner (the
 * request's, in a request transaction), answering the driver's whole result.
 */
export async function runForResult(
  manager: EntityManager,
  sql: string,
  parameters: unknown[],
): Promise<InsertResult> {
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    return InsertResult.from(await runner.query(sql, parameters, true));
  } finally {
    if (!manager.queryRunner) {
      await runner.release();
    }
  }
}

/** The primary key `id` the database generated for the one row of an INSERT's result (NaN when none). */
export function generatedId(dataSource: DataSource, metadata: EntityMetadata, result: InsertResult): number {
  // How the driver reads the generated key from its INSERT result (MySQL's insertId, SQLite's last row id).
  const generated = dataSource.driver.createGeneratedMap(metadata, result.raw, 0, 1) as
    { id?: unknown } | undefined;
  return Number(generated?.id);
}

// ---------------------------------------------------------------------------------------------
// The query runners

/** The prototypes of the query runners of both databases, whose `query` sends every statement. */
export function queryRunnerPrototypes(): { system: string; prototype: object }[] {
  return [
    { system: 'mysql', prototype: MysqlQueryRunner.prototype },
    { system: 'sqlite', prototype: BetterSqlite3QueryRunner.prototype },
  ];
}
