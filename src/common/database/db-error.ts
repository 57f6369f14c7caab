import { QueryFailedError } from 'typeorm';

/**
 * A database failure in the terms the API answers with, whichever driver produced it. MySQL names
 * the violated index or foreign key; SQLite names the columns of a unique index, and our foreign-key
 * triggers name the tables (docs/database.md; created by src/database/migrations/support/schema-v1.ts).
 */
export type DbFailure =
  | { kind: 'unique'; table: string; columns: string[]; values?: string[] }
  | { kind: 'missingReference'; table: string; column: string; referencedTable: string }
  | { kind: 'inUse'; table: string; referencingTable: string }
  | { kind: 'notNull'; column: string }
  | { kind: 'badValue'; column?: string }
  | { kind: 'contention' }
  | { kind: 'unavailable' };

interface DriverError {
  code?: string;
  errno?: number;
  message?: string;
  sqlMessage?: string;
}

const MYSQL_FK = /`(\w+)`, CONSTRAINT `\w+` FOREIGN KEY \(`(\w+)`\) REFERENCES `(\w+)`/;
const SQLITE_FK = /FOREIGN KEY (missing|restrict) (\w+)\.(\w+) -> (\w+)/;
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'POOL_CLOSED',
  'EHOSTUNREACH',
  // No connection within DB_ACQUIRE_TIMEOUT_MS (src/database/typeorm-options.ts).
  'POOL_ACQUIRE_TIMEOUT',
  // A Galera node that is not part of the primary component (joining, cut off) refuses statements.
  'ER_UNKNOWN_COM_ERROR',
]);

export function classifyDbError(error: unknown): DbFailure | undefined {
  const driver = driverErrorOf(error);
  if (!driver) {
    return undefined;
  }
  if (driver.code && UNAVAILABLE_CODES.has(driver.code)) {
    return { kind: 'unavailable' };
  }
  const query = error instanceof QueryFailedError ? error.query : undefined;
  const parameters =
    error instanceof QueryFailedError ? (error.parameters as unknown[] | undefined) : undefined;
  return typeof driver.errno === 'number' && driver.code?.startsWith('ER_')
    ? classifyMysql(driver, query, parameters)
    : classifySqlite(driver, query, parameters);
}

function driverErrorOf(error: unknown): DriverError | undefined {
  if (error instanceof QueryFailedError) {
    return error.driverError as DriverError;
  }
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    return error as DriverError;
  }
  return undefined;
}

function classifyMysql(driver: DriverError, query?: string, parameters?: unknown[]): DbFailure | undefined {
  const message = driver.sqlMessage ?? driver.message ?? '';
  switch (driver.errno) {
    case 1062: {
      const key = /for key '(?:[^'.]+\.)?([^']+)'/.exec(message)?.[1] ?? '';
      const named = /^uq_(.+?)__(.+)$/.exec(key);
      if (!named) {
        return { kind: 'unique', table: tableOf(query) ?? 'resource', columns: [] };
      }
      const table = named[1];
      const columns = named[2].split('__');
      const fromQuery = valuesFromQuery(query, parameters, columns);
      const fromMessage =
        columns.length === 1 ? /Duplicate entry '(.*)' for key/s.exec(message)?.[1] : undefined;
      return {
        kind: 'unique',
        table,
        columns,
        values: fromQuery ?? (fromMessage === undefined ? undefined : [fromMessage]),
      };
    }
    case 1216:
    case 1452: {
      const m = MYSQL_FK.exec(message);
      return m ? { kind: 'missingReference', table: m[1], column: m[2], referencedTable: m[3] } : undefined;
    }
    case 1217:
    case 1451: {
      const m = MYSQL_FK.exec(message);
      return m ? { kind: 'inUse', table: m[3], referencingTable: m[1] } : undefined;
    }
    case 1048:
    case 1364: {
      const column = /(?:Column|Field) '(\w+)'/.exec(message)?.[1];
      return column ? { kind: 'notNull', column } : undefined;
    }
    case 1264:
    case 1265:
    case 1366:
    case 1406:
    case 3819:
      return { kind: 'badValue', column: /column '(\w+)'/i.exec(message)?.[1] };
    case 1205:
    case 1213:
      return { kind: 'contention' };
    default:
      return undefined;
  }
}

function classifySqlite(driver: DriverError, query?: string, parameters?: unknown[]): DbFailure | undefined {
  const message = driver.message ?? '';
  switch (driver.code) {
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY': {
      const qualified = message.replace(/^.*constraint failed: /s, '').split(', ');
      const table = qualified[0]?.split('.')[0] ?? 'resource';
      const columns = qualified.map((c) => c.split('.')[1] ?? c);
      return { kind: 'unique', table, columns, values: valuesFromQuery(query, parameters, columns) };
    }
    case 'SQLITE_CONSTRAINT_TRIGGER': {
      const m = SQLITE_FK.exec(message);
      if (!m) {
        return undefined;
      }
      return m[1] === 'missing'
        ? { kind: 'missingReference', table: m[2], column: m[3], referencedTable: m[4] }
        : { kind: 'inUse', table: m[4], referencingTable: m[2] };
    }
    case 'SQLITE_CONSTRAINT_NOTNULL': {
      const column = /NOT NULL constraint failed: \w+\.(\w+)/.exec(message)?.[1];
      return column ? { kind: 'notNull', column } : undefined;
    }
    case 'SQLITE_CONSTRAINT_CHECK':
    case 'SQLITE_MISMATCH':
      return { kind: 'badValue' };
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return { kind: 'contention' };
    default:
      return undefined;
  }
}

function tableOf(query?: string): string | undefined {
  return query ? /^\s*(?:INSERT\s+INTO|UPDATE)\s+[`"]?(\w+)[`"]?/i.exec(query)?.[1] : undefined;
}

/** Splits a SQL list at top-level commas (outside parentheses and quotes). */
function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let current = '';
  for (const ch of list) {
    if (quote) {
      quote = ch === quote ? undefined : quote;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
    } else if (ch === '(') {
      depth++;
    } else if (ch === ')') {
      depth--;
    } else if (ch === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  parts.push(current.trim());
  return parts;
}

const unquote = (identifier: string): string => identifier.trim().replace(/^[`"]|[`"]$/g, '');

const NO_VALUE = Symbol('no value');

/**
 * The value a VALUES or SET token gives: the next parameter for `?`, else a literal (TypeORM writes
 * some values, e.g. relation keys on SQLite, straight into the statement); other expressions give none.
 */
function tokenValue(token: string, parameters: unknown[], next: { index: number }): unknown {
  if (token === '?') {
    return parameters[next.index++];
  }
  if (/^-?\d+(\.\d+)?$/.test(token)) {
    return token;
  }
  const quoted = /^'((?:[^']|'')*)'$/s.exec(token);
  return quoted ? quoted[1].replace(/''/g, "'") : NO_VALUE;
}

/**
 * The values a single-row INSERT or an UPDATE (as TypeORM writes them) gave to `columns`, read back
 * from the failed statement and its parameters; undefined when the statement has another shape.
 */
export function valuesFromQuery(
  query?: string,
  parameters?: unknown[],
  columns: string[] = [],
): string[] | undefined {
  if (!query || !parameters || columns.length === 0) {
    return undefined;
  }
  const assigned = new Map<string, unknown>();
  const insert = /^\s*INSERT\s+INTO\s+\S+\s*\((.*?)\)\s*VALUES\s*\((.*)\)\s*(?:RETURNING.*)?$/is.exec(query);
  const update = /^\s*UPDATE\s+\S+\s+SET\s+(.*?)\s+WHERE\s/is.exec(query);
  const next = { index: 0 };
  const assign = (name: string, token: string): void => {
    const value = tokenValue(token, parameters, next);
    if (value !== NO_VALUE) {
      assigned.set(name, value);
    }
  };
  if (insert) {
    const names = splitTopLevel(insert[1]).map(unquote);
    const values = splitTopLevel(insert[2]);
    if (names.length !== values.length) {
      return undefined;
    }
    names.forEach((name, i) => assign(name, values[i]));
  } else if (update) {
    for (const assignment of splitTopLevel(update[1])) {
      const [name, value] = assignment.split(/\s*=\s*/, 2);
      assign(unquote(name), value ?? '');
    }
  } else {
    return undefined;
  }
  if (!columns.every((c) => assigned.has(c))) {
    return undefined;
  }
  return columns.map((c) => String(assigned.get(c)));
}

/**
 * Runs a write and answers the database failures `translate` recognises with its exception, for
 * the few places where the original words a constraint violation its own way (e.g. `an asn with the
 * specified number already exists`). Everything else still reaches the exception filter's mapping.
 */
export async function translateDbErrors<T>(
  work: () => Promise<T>,
  translate: (failure: DbFailure) => Error | undefined,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const failure = classifyDbError(error);
    throw (failure && translate(failure)) ?? error;
  }
}
