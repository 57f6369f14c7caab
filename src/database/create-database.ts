import * as mysql from 'mysql2/promise';
import type { DatabaseConfig } from 'src/config/database.env';
import { parseDatabaseUrl, urlForHost } from 'src/database/database-url';
import { meansNodeDown } from 'src/database/failover-pool';

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
  const { database: name, hosts } = parseDatabaseUrl(config.url);
  const connectTimeout = config.connectTimeoutMs;
  // With several hosts (a cluster's nodes), the first that answers: the database replicates.
  let host = hosts[0];
  for (const [index, candidate] of hosts.entries()) {
    try {
      host = candidate;
      await (await mysql.createConnection({ uri: urlForHost(config.url, candidate), connectTimeout })).end();
      return false;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ER_BAD_DB_ERROR') {
        break;
      }
      if (!meansNodeDown(error) || index === hosts.length - 1) {
        throw error;
      }
    }
  }
  const server = await mysql.createConnection({ uri: urlForHost(config.url, host, ''), connectTimeout });
  try {
    await server.query(
      `CREATE DATABASE IF NOT EXISTS ${server.escapeId(name)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
  } finally {
    await server.end();
  }
  return true;
}
