import 'tsconfig-paths/register';
import { rmSync } from 'node:fs';
import * as mysql from 'mysql2/promise';
import { stopInfluxDb } from 'test/e2e/support/influxdb';
import { testDatabase } from 'test/e2e/support/test-database';

export default async function globalTeardown(): Promise<void> {
  if (process.env.E2E_INFLUXDB_PID || process.env.E2E_INFLUXDB_DIR) {
    await stopInfluxDb({
      pid: Number(process.env.E2E_INFLUXDB_PID) || undefined,
      dir: process.env.E2E_INFLUXDB_DIR,
    });
  }
  const db = testDatabase(Number(process.env.E2E_DB_PID));
  if (db.driver === 'mysql') {
    const connection = await mysql.createConnection(db.serverUrl!);
    await connection.query(`DROP DATABASE IF EXISTS \`${db.database}\``);
    await connection.end();
    return;
  }
  for (const suffix of ['', '-wal', '-shm']) {
    rmSync(db.location + suffix, { force: true });
  }
}
