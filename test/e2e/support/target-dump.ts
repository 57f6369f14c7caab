import Database from 'better-sqlite3';
import * as mysql from 'mysql2/promise';

/** A fresh database of its own for a suite (SQLite file or MySQL database), read back directly. */
export interface FreshTarget {
  driver: 'mysql' | 'sqlite';
  /** DATABASE_URL / SQLITE_PATH for child processes. */
  env: Record<string, string | undefined>;
}

/** Every row of `tables`, ordered by all columns: equal dumps mean equal contents. */
export async function dumpTables(target: FreshTarget, tables: string[]): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  if (target.driver === 'sqlite') {
    const db = new Database(target.env.SQLITE_PATH, { readonly: true });
    try {
      for (const table of tables) {
        dump[table] = db.prepare(`SELECT * FROM "${table}" ORDER BY 1, 2`).all();
      }
    } finally {
      db.close();
    }
    return dump;
  }
  const connection = await mysql.createConnection({ uri: target.env.DATABASE_URL!, dateStrings: true });
  try {
    for (const table of tables) {
      const [rows] = await connection.query(`SELECT * FROM \`${table}\` ORDER BY 1, 2`);
      dump[table] = rows as unknown[];
    }
  } finally {
    await connection.end();
  }
  return dump;
}
