import type { DataSource, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import {
  hydrator,
  mysqlRowsAsArrays,
  rawKey,
  selectShape,
  type ColumnMetadata,
  type SelectShape,
} from 'src/common/database/typeorm-adapter';

/**
 * Lists read into plain objects of the entity's shape, without TypeORM's entity hydration
 * (docs/decisions.md#d106). TypeORM turns each raw row into entities through a generic walk of its
 * metadata for every row and every column (about half of the CPU of a large list); here the walk is
 * done once per query shape and kept as a plan: which raw key goes to which property, converted by
 * the driver's own `prepareHydratedValue` (booleans, dates, value transformers), exactly as TypeORM
 * converts it. Joined many-to-one relations become nested objects, or `null` when the left join found
 * nothing, as TypeORM sets them.
 *
 * Only query shapes with one row per entity are accepted: the main alias selected whole, and
 * many-to-one or one-to-one joins, each selected whole or in part with its primary key (a reference
 * whose name alone is shown: `leftJoin(…).addSelect(['cdn.id', 'cdn.name'])`; the joined object then
 * holds those properties only). A to-many join (which TypeORM would group) or a partial selection of
 * the main alias is a programming error and throws, so a query can never silently lose rows or fields.
 *
 * On MySQL the rows are read as arrays (`readArrays`): mysql2 then builds one array per row instead of
 * an object with a property per selected column (a list of 300 delivery services selects 86), which
 * was over half of the bytes a large list allocated. The reader finds each value by its column's
 * position in the result, compiled once per list of result columns.
 */
export async function getPlainMany<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): Promise<T[]> {
  const plan = planFor(qb);
  if (qb.connection.options.type === 'mysql') {
    if (selectShape(qb).locksOrCaches) {
      throw new Error('getPlainMany reads without locks, transactions of its own or a result cache');
    }
    const { rows, columns } = await mysqlRowsAsArrays(qb);
    return readAll<T, unknown[]>(plan.byPosition(columns), rows);
  }
  return readAll<T>(plan.byKey, await qb.getRawMany());
}

/**
 * Selects, of each joined reference of `qb` (already joined under the alias named by the key), the
 * columns listed (properties, the primary key among them): what `getPlainMany` then reads of it
 * (docs/decisions.md#d232). `qb` is returned.
 */
export function selectReferences<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  references: Readonly<Record<string, readonly string[]>>,
): SelectQueryBuilder<T> {
  for (const [alias, properties] of Object.entries(references)) {
    qb.addSelect(properties.map((property) => `${alias}.${property}`));
  }
  return qb;
}

const ID_LIST = 'IN (:ids)';

/**
 * The rows of `sql` for a page's ids, for the detail tables of a list (origins, match lists, …): `sql`
 * holds `IN (:ids)`, which becomes the list of the ids. The ids are the page's own (integers read from
 * the database) and are checked to be integers, then written into the statement as decimal
 * numbers: a query builder would bind each id as a named parameter and rewrite the whole statement
 * once per id (on a page of 300 that cost more than the query itself), and even positional
 * parameters are escaped one by one by the driver. Anything but an integer is a programming error
 * and throws, so nothing a request sent ever reaches the text.
 */
export async function rowsForIds<T>(
  manager: EntityManager,
  sql: string,
  ids: readonly number[],
): Promise<T[]> {
  if (!sql.includes(ID_LIST)) {
    throw new Error(`rowsForIds: the statement has no ${ID_LIST}`);
  }
  if (ids.length === 0) {
    return [];
  }
  for (const id of ids) {
    if (!Number.isSafeInteger(id)) {
      throw new Error(`rowsForIds: ${String(id)} is not an id`);
    }
  }
  return manager.query<T[]>(sql.replace(ID_LIST, `IN (${ids.join(', ')})`));
}

/**
 * `getPlainMany` for the detail rows of a page: `qb` selects whole entities `WHERE … IN (:ids)`, the
 * ids left unbound (and no other parameter), and runs as `rowsForIds` runs (the ids written into the
 * statement) on `manager`.
 */
export async function getPlainManyForIds<T extends ObjectLiteral>(
  manager: EntityManager,
  qb: SelectQueryBuilder<T>,
  ids: readonly number[],
): Promise<T[]> {
  const plan = planFor(qb);
  const [sql, parameters] = qb.getQueryAndParameters();
  if (parameters.length > 0) {
    throw new Error('getPlainManyForIds: the query may have no parameter but the ids');
  }
  return readAll<T>(plan.byKey, await rowsForIds<RawRow>(manager, sql, ids));
}

/**
 * Raw rows of some other statement (an INSERT … RETURNING) read as `getPlainMany` reads those of
 * `qb`: each selected column under the key `qb` would give it (`plainKeys`).
 */
export function readPlain<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, raws: RawRow[]): T[] {
  return readAll<T>(planFor(qb).byKey, raws);
}

/** The columns `getPlainMany` reads for `qb`'s main alias (no joins): database name and raw key. */
export function plainKeys<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
): { column: string; key: string }[] {
  const { main, hasJoins } = selectShape(qb);
  if (!main || hasJoins) {
    throw new Error('plainKeys needs a query builder on one entity, without joins');
  }
  return readColumns(main.columns).map((column) => ({
    column: column.databaseName,
    key: rawKey(qb.connection, main.alias, column.databaseName),
  }));
}

/** The first row of `getPlainMany`, or undefined. */
export async function getPlainOne<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
): Promise<T | undefined> {
  return (await getPlainMany(qb))[0];
}

type RawRow = Record<string, unknown>;

/** The columns of an entity a plain row holds. */
function readColumns(columns: ColumnMetadata[]): ColumnMetadata[] {
  return columns.filter((column) => !column.isVirtual && column.isSelect !== false);
}
/** The readers of one query shape: of rows keyed by column alias, and of rows as arrays. */
interface Plan {
  byKey: (raw: RawRow) => ObjectLiteral;
  /** The reader of array rows whose columns are `columns` (result column names, in order). */
  byPosition: (columns: readonly string[]) => (raw: unknown[]) => ObjectLiteral;
}

interface AliasPlan {
  name: string;
  columns: { key: string; property: string; column: ColumnMetadata }[];
  /** Joined aliases nested under this one, by the relation's property. */
  joins: { property: string; plan: AliasPlan }[];
}

/** Each raw row read by the query shape's plan. */
function readAll<T, R = RawRow>(read: (raw: R) => ObjectLiteral, raws: R[]): T[] {
  const rows = new Array<T>(raws.length);
  for (let i = 0; i < raws.length; i++) {
    rows[i] = read(raws[i]) as T;
  }
  return rows;
}

const plans = new WeakMap<DataSource, Map<string, Plan>>();

function planFor<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): Plan {
  const select = selectShape(qb);
  const main = select.main;
  if (!main) {
    throw new Error('getPlainMany needs a query builder on an entity');
  }
  const shape =
    `${main.entityName} ${main.alias}|${[...select.selections].join(',')}|` +
    select.joins
      .map((join) => `${join.parentAlias ?? ''}.${join.relationProperty ?? ''}>${join.alias}`)
      .join(',');
  const dataSource = qb.connection;
  let byShape = plans.get(dataSource);
  if (!byShape) {
    byShape = new Map();
    plans.set(dataSource, byShape);
  }
  let plan = byShape.get(shape);
  if (!plan) {
    plan = compile(qb, select);
    byShape.set(shape, plan);
  }
  return plan;
}

function compile<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, select: SelectShape): Plan {
  const dataSource = qb.connection;
  const selected = select.selections;
  const aliasPlan = (name: string, columns: ColumnMetadata[], joined: boolean): AliasPlan => {
    let read = readColumns(columns);
    if (!selected.has(name)) {
      // A joined reference may be selected in part (its key and what is shown of it, e.g. a name);
      // the main alias is always read whole.
      read = read.filter((column) => selected.has(`${name}.${column.propertyPath}`));
      if (!joined || !read.some((column) => column.isPrimary)) {
        throw new Error(
          `getPlainMany reads the main alias whole, and a join whole or with its primary key: '${name}' is selected in part`,
        );
      }
    }
    return {
      name,
      columns: read.map((column) => {
        if (column.embeddedMetadata) {
          throw new Error(`getPlainMany does not map embedded columns (${name}.${column.propertyPath})`);
        }
        return {
          key: rawKey(dataSource, name, column.databaseName),
          property: column.propertyName,
          column,
        };
      }),
      joins: [],
    };
  };
  const root = aliasPlan(select.main!.alias, select.main!.columns, false);
  const byName = new Map<string, AliasPlan>([[root.name, root]]);
  for (const join of select.joins) {
    if (!join.relationProperty || !join.columns || !join.parentAlias || join.mapsOrMany) {
      throw new Error(`getPlainMany maps only selected many-to-one joins ('${join.alias}')`);
    }
    const parent = byName.get(join.parentAlias);
    if (!parent) {
      throw new Error(`getPlainMany: '${join.alias}' joins an alias it does not know`);
    }
    const child = aliasPlan(join.alias, join.columns, true);
    parent.joins.push({ property: join.relationProperty, plan: child });
    byName.set(child.name, child);
  }

  const hydrate = hydrator(dataSource);
  const byColumns = new Map<string, (raw: unknown[]) => ObjectLiteral>();
  return {
    byKey: generateReader(root, hydrate, (key) => JSON.stringify(key)),
    byPosition: (columns) => {
      const signature = columns.join('\0');
      let read = byColumns.get(signature);
      if (!read) {
        const positions = new Map(columns.map((name, i) => [name, i]));
        read = generateReader(root, hydrate, (key) => {
          const position = positions.get(key);
          if (position === undefined) {
            throw new Error(`getPlainMany: the result has no column ${key}`);
          }
          return String(position);
        });
        byColumns.set(signature, read);
      }
      return read;
    },
  };
}

/**
 * Column types whose values both drivers hand over unchanged (no transformer): read as they are.
 * Booleans are converted inline as the drivers convert them, and a `datetime` that is already a Date
 * (mysql2 makes them) is kept as both drivers' `prepareHydratedValue` keeps it; every other value goes
 * through the driver's `prepareHydratedValue` (SQLite's datetime text, for one).
 */
const AS_IS = new Set([
  'int',
  'integer',
  'smallint',
  'bigint',
  'varchar',
  'text',
  'char',
  'double',
  'float',
  'real',
]);

/**
 * The reader of one query shape, generated once as a function whose object literals have the
 * entities' properties in metadata order (one hidden class per alias, no per-column loop). Every
 * property name is written into the source through JSON.stringify, and comes from the entity
 * metadata, never from a request; `accessor` writes where a raw key's value is in a raw row (the key
 * through JSON.stringify, or its position as a decimal integer).
 */
function generateReader<R>(
  root: AliasPlan,
  hydrate: (value: unknown, column: ColumnMetadata) => unknown,
  accessor: (key: string) => string,
): (raw: R) => ObjectLiteral {
  const columns: ColumnMetadata[] = [];
  const lines: string[] = [];
  const objectOf = (plan: AliasPlan): string => {
    const values = plan.columns.map(({ key, column }) => {
      const name = `v${columns.length}`;
      columns.push(column);
      lines.push(`const ${name} = raw[${accessor(key)}];`);
      return { name, column };
    });
    const fields = values.map(({ name, column }, i) => {
      const index = columns.indexOf(column);
      const type =
        typeof column.type === 'string'
          ? column.type
          : column.type === Boolean
            ? 'boolean'
            : column.type === Date
              ? 'datetime'
              : '';
      const value = column.transformer
        ? `hydrate(${name}, columns[${index}])`
        : AS_IS.has(type)
          ? name
          : type === 'boolean'
            ? `(${name} == null ? ${name} : ${name} ? true : false)`
            : type === 'datetime'
              ? `(${name} == null || ${name} instanceof Date ? ${name} : hydrate(${name}, columns[${index}]))`
              : `(${name} == null ? ${name} : hydrate(${name}, columns[${index}]))`;
      return `${JSON.stringify(plan.columns[i].property)}: ${value}`;
    });
    const joins = plan.joins.map((join) => `${JSON.stringify(join.property)}: ${objectOf(join.plan)}`);
    const hasData = values.map(({ name }) => `${name} != null`).join(' || ') || 'false';
    return `((${hasData}) ? { ${[...fields, ...joins].join(', ')} } : null)`;
  };
  const body = objectOf(root);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from entity metadata only (see above)
  const reader = new Function(
    'hydrate',
    'columns',
    `return (raw) => {\n${lines.join('\n')}\nreturn ${body};\n};`,
  ) as (
    hydrate: (value: unknown, column: ColumnMetadata) => unknown,
    columns: ColumnMetadata[],
  ) => (raw: R) => ObjectLiteral | null;
  const read = reader(hydrate, columns);
  return (raw) => read(raw) ?? {};
}

/** Rows grouped by a key, each group in the rows' order (one pass, instead of a filter per parent). */
export function groupBy<T, K>(rows: readonly T[], keyOf: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) {
      group.push(row);
    } else {
      groups.set(key, [row]);
    }
  }
  return groups;
}
