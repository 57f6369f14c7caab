import * as mysql from 'mysql2/promise';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Which database the e2e run uses. TEST_DATABASE_URL (mysql://…/<db>) selects MySQL; the run then
 * works in its own database `<db>_e2e_<pid>`, created and dropped by the global setup and teardown,
 * so it never touches the named database's tables. Without it the run uses a fresh SQLite file.
 */
export interface TestDatabase {
  driver: 'mysql' | 'sqlite';
  /** DATABASE_URL for the app (MySQL), or SQLITE_PATH (SQLite). */
  location: string;
  /** MySQL: the server URL without a database, and the run's database name. */
  serverUrl?: string;
  database?: string;
}

export function testDatabase(pid: number): TestDatabase {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    return { driver: 'sqlite', location: join(tmpdir(), `cdn-e2e-${pid}.sqlite`) };
  }
  const parsed = new URL(url);
  const database = `${parsed.pathname.replace(/^\//, '') || 'test'}_e2e_${pid}`;
  parsed.pathname = '/';
  const serverUrl = parsed.toString();
  parsed.pathname = `/${database}`;
  return { driver: 'mysql', location: parsed.toString(), serverUrl, database };
}

/**
 * Drops a database a suite made next to the run's: on MySQL the database `name` on the run's
 * server, on SQLite the directory `dir` that holds its file.
 */
export async function dropFreshDatabase(db: TestDatabase, name: string, dir: string): Promise<void> {
  if (db.driver === 'mysql') {
    const connection = await mysql.createConnection(db.serverUrl!);
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.end();
  } else {
    rmSync(dir, { recursive: true, force: true });
  }
}
