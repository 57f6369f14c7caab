import 'tsconfig-paths/register';
import { rmSync } from 'node:fs';
import * as mysql from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { databaseConfigFrom } from 'src/config/database.env';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';
import {
  ADMIN_PASSWORD,
  CDNI_DCDN_ID,
  CDNI_JWT_DECODING_SECRET,
  KEY_STORE_KEY,
  KICKSTART_FILES_DIR,
  SESSION_SECRET,
} from 'test/e2e/support/constants';
import { INFLUXDB_RUNNING, startInfluxDb } from 'test/e2e/support/influxdb';
import { testDatabase } from 'test/e2e/support/test-database';

/** Creates the run's database and migrates it once; every suite then boots the app against it. */
export default async function globalSetup(): Promise<void> {
  const db = testDatabase(process.pid);
  process.env.E2E_DB_PID = String(process.pid);
  process.env.ADMIN_PASSWORD = ADMIN_PASSWORD;
  process.env.SESSION_SECRET = SESSION_SECRET;
  process.env.SERVER_NAME = 'cdn-control-plane/e2e';
  process.env.KEY_STORE_KEY = KEY_STORE_KEY;
  process.env.KICKSTART_FILES_DIR = KICKSTART_FILES_DIR;
  process.env.CDNI_DCDN_ID = CDNI_DCDN_ID;
  process.env.CDNI_JWT_DECODING_SECRET = CDNI_JWT_DECODING_SECRET;
  // A Date a route's wire schema does not place, or a cached INSERT TypeORM would build otherwise, is a
  // 500: every suite checks the schemas and the statement cache.
  process.env.WIRE_TIMES_CHECK = '1';
  process.env.INSERT_STATEMENTS_CHECK = '1';
  // Request logs only for 5xx (with their cause) during the tests.
  process.env.LOG_LEVEL = 'error';
  if (db.driver === 'mysql') {
    const connection = await mysql.createConnection(db.serverUrl!);
    await connection.query(`DROP DATABASE IF EXISTS \`${db.database}\``);
    await connection.query(
      `CREATE DATABASE \`${db.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    await connection.end();
    process.env.DATABASE_URL = db.location;
    delete process.env.SQLITE_PATH;
  } else {
    for (const suffix of ['', '-wal', '-shm']) {
      rmSync(db.location + suffix, { force: true });
    }
    delete process.env.DATABASE_URL;
    process.env.SQLITE_PATH = db.location;
  }
  const dataSource = new DataSource(buildTypeOrmOptions(databaseConfigFrom(process.env)));
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  await dataSource.destroy();

  // A throwaway InfluxDB for GET current_stats when `influxd` is installed (see influxdb.ts).
  const influx = await startInfluxDb();
  if (influx) {
    process.env.INFLUXDB_URL = influx.url;
    process.env.E2E_INFLUXDB = INFLUXDB_RUNNING;
    process.env.E2E_INFLUXDB_PID = String(influx.pid);
    process.env.E2E_INFLUXDB_DIR = influx.dir;
  } else {
    delete process.env.INFLUXDB_URL;
  }
}
