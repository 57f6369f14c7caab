import 'tsconfig-paths/register';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { databaseConfigFrom } from 'src/config/database.env';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';
import { type ClusterLayout, connectNode, startCluster, stopCluster } from 'test/cluster/support/galera';
import { CLUSTER_DATABASE, clusterUrl } from 'test/cluster/support/instances';
import {
  ADMIN_PASSWORD,
  KEY_STORE_KEY,
  KICKSTART_FILES_DIR,
  SESSION_SECRET,
} from 'test/e2e/support/constants';

/**
 * Starts the three-node Galera cluster (galera.ts), creates the database and runs the migrations
 * once, on node 1 only (the suites check that they replicated). The service instances are started by
 * the suites (instances.ts), one per node.
 */
export default async function globalSetup(): Promise<void> {
  const layout: ClusterLayout = {
    dir: mkdtempSync(join(tmpdir(), 'cdn-galera-')),
    basePort: Number(process.env.CLUSTER_BASE_PORT ?? 4306),
    nodes: 3,
  };
  process.env.CLUSTER_LAYOUT = JSON.stringify(layout);
  process.env.ADMIN_PASSWORD = ADMIN_PASSWORD;
  process.env.SESSION_SECRET = SESSION_SECRET;
  process.env.KEY_STORE_KEY = KEY_STORE_KEY;
  process.env.KICKSTART_FILES_DIR = KICKSTART_FILES_DIR;
  process.env.SERVER_NAME = 'cdn-control-plane/cluster';
  process.env.LOG_LEVEL = 'error';
  // Short, so that the suites see a session ended through one instance end on the others soon.
  process.env.SESSION_CACHE_SECONDS = '1';
  // Few, so that the login limit's suite needs few (slow, by design) failed sign-ins.
  process.env.LOGIN_MAX_FAILURES = '5';
  // A node that failed is tried again after a second (5 s by default).
  process.env.DB_FAILOVER_RETRY_MS = '1000';
  delete process.env.SQLITE_PATH;
  try {
    await startCluster(layout);
    const connection = await connectNode(layout, 0);
    await connection.query(
      `CREATE DATABASE \`${CLUSTER_DATABASE}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    await connection.end();
    // The migrations run once, through node 1 alone; Galera replicates every statement.
    const dataSource = new DataSource(
      buildTypeOrmOptions(databaseConfigFrom({ ...process.env, DATABASE_URL: clusterUrl(layout, [0]) })),
    );
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    await dataSource.destroy();
  } catch (error) {
    await stopCluster(layout);
    throw error;
  }
}
