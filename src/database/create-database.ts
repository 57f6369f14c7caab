import * as mysql from 'mysql2/promise';
import type { DatabaseConfig } from 'src/config/database.config';

/**
 * Creates the MySQL database DATABASE_URL names when it does not exist yet (utf8mb4, the
 * collation the migrations expect). Nothing is asked of the server when it exists, so a user with
 * rights on that one database only is enough. Returns whether it created it. The embedded SQLite
 * file is created by opening it.
 */
export async function createDatabaseIfMissing(config: DatabaseConfig): Promise<boolean> {
  if (config.driver !== 'mysql') {
    return false;
  }
  const url = new URL(config.url);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const connectTimeout = config.connectTimeoutMs;
  try {
    await (await mysql.createConnection({ uri: config.url, connectTimeout })).end();
    return false;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ER_BAD_DB_ERROR') {
      throw error;
    }
  }
  url.pathname = '/';
  const server = await mysql.createConnection({ uri: url.toString(), connectTimeout });
  try {
    await server.query(
      `CREATE DATABASE IF NOT EXISTS ${server.escapeId(name)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await server.end();
  }
  return true;
}
