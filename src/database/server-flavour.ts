import * as mysql from 'mysql2/promise';
import type { DataSourceOptions } from 'typeorm';

/**
 * The options, told whether a MySQL server is MariaDB — for the tools that compare the schema with
 * the entities (the TypeORM CLI's `migration:generate`, the schema test). TypeORM reads MariaDB's
 * information_schema right only with `type: 'mariadb'`: with `type: 'mysql'` it takes MariaDB's
 * "no default" (the text NULL) for a default value and finds every nullable column changed. The
 * application keeps `type: 'mysql'` (what it writes is the same; the types differ in what TypeORM
 * generates for queries, e.g. INSERT … RETURNING on MariaDB).
 */
export async function withServerFlavour(options: DataSourceOptions): Promise<DataSourceOptions> {
  if (options.type !== 'mysql' || !options.url) {
    return options;
  }
  const connection = await mysql.createConnection(options.url);
  try {
    const [rows] = await connection.query<mysql.RowDataPacket[]>('SELECT VERSION() AS version');
    return /mariadb/i.test(String(rows[0]?.version)) ? { ...options, type: 'mariadb' } : options;
  } finally {
    await connection.end();
  }
}
