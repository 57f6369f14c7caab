import type { DataSource } from 'typeorm';
import type { Route } from 'src/common/routes/route-inventory';

/** A route's path with values that name nothing: ids out of any test's reach, names that do not exist. */
export function probePath(route: Route): string {
  return route.path.replace(/:(\w+)/g, (_m, name: string) =>
    /id$/i.test(name) ? '2147480000' : 'no-such-name',
  );
}

/**
 * The row count of every table of the application (but `except`), in one statement: what a refused
 * request must leave as it was.
 */
export async function rowCounts(
  dataSource: DataSource,
  except: string[] = [],
): Promise<Record<string, number>> {
  const tables = dataSource.entityMetadatas.map((m) => m.tableName).filter((t) => !except.includes(t));
  const [row] = await dataSource.query<Record<string, number | string>[]>(
    `SELECT ${tables.map((t) => `(SELECT COUNT(*) FROM ${t}) AS ${t}`).join(', ')}`,
  );
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}
