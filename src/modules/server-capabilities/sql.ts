import { bindParameters } from 'src/common/database/typeorm-adapter';
import type { DataSource, ObjectLiteral } from 'typeorm';

/**
 * A raw statement with named parameters (`:name`, `:...list`), run on the request's transaction
 * when there is one (the RequestScopedDataSource hands out its query runner).
 */
export async function runSql<T = ObjectLiteral>(
  dataSource: DataSource,
  sql: string,
  parameters: ObjectLiteral = {},
): Promise<T[]> {
  const [query, bound] = bindParameters(dataSource, sql, parameters, {});
  return dataSource.query<T[]>(query, bound);
}

/**
 * Server types that may have capabilities: the original's `type.name LIKE 'MID%' OR LIKE 'EDGE%'`
 * among server types (case-sensitive, as PostgreSQL's LIKE). `t` is the server's type.
 */
export const CAPABLE_SERVER_TYPE = `(t.use_in_table = 'server' AND (SUBSTR(t.name, 1, 3) = 'MID' OR SUBSTR(t.name, 1, 4) = 'EDGE'))`;
