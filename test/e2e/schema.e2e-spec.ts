import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as mysql from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { databaseConfigFrom, type DatabaseConfig } from 'src/config/database.env';
import { MIGRATIONS_TABLE } from 'src/database/typeorm-options';
import {
  describePendingChanges,
  pendingSchemaChanges,
  schemaDataSource,
  schemaDump,
  schemaObjects,
} from 'test/e2e/support/schema';
import { testDatabase } from 'test/e2e/support/test-database';

async function expectNoPendingChanges(dataSource: DataSource): Promise<void> {
  const pending = await pendingSchemaChanges(dataSource);
  if (pending.length > 0) {
    throw new Error(await describePendingChanges(dataSource, pending));
  }
  expect(pending).toEqual([]);
}

/**
 * The entities describe exactly the schema the migrations create, so that TypeORM's schema builder —
 * and `migration:generate` — finds nothing to change; and every migration can be reverted, back to
 * an empty database, and run again to the same schema. On the run's database (see global-setup.ts)
 * and on a scratch database of the same kind that this suite creates and drops.
 */
describe('schema', () => {
  const run = testDatabase(Number(process.env.E2E_DB_PID));
  let scratch: DatabaseConfig;

  beforeAll(async () => {
    if (run.driver === 'mysql') {
      const name = `${run.database}_schema`;
      const connection = await mysql.createConnection(run.serverUrl!);
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      await connection.end();
      const url = new URL(run.location);
      url.pathname = `/${name}`;
      scratch = {
        driver: 'mysql',
        url: url.toString(),
        poolSize: 2,
        queryTimeoutMs: 0,
        acquireTimeoutMs: 5000,
      };
    } else {
      const path = join(tmpdir(), `cdn-e2e-${process.env.E2E_DB_PID}-schema.sqlite`);
      scratch = { driver: 'sqlite', path, busyTimeoutMs: 5000 };
      removeSqlite(path);
    }
  });

  afterAll(async () => {
    if (scratch.driver === 'mysql') {
      const connection = await mysql.createConnection(run.serverUrl!);
      await connection.query(`DROP DATABASE IF EXISTS \`${run.database}_schema\``);
      await connection.end();
    } else {
      removeSqlite(scratch.path);
    }
  });

  it("has nothing pending on the run's freshly migrated database", async () => {
    const dataSource = await schemaDataSource(databaseConfigFrom(process.env));
    await dataSource.initialize();
    try {
      expect(await dataSource.showMigrations()).toBe(false);
      await expectNoPendingChanges(dataSource);
    } finally {
      await dataSource.destroy();
    }
  });

  it('reverts every migration back to an empty database, then migrates again to the same schema', async () => {
    const dataSource = await schemaDataSource(scratch);
    await dataSource.initialize();
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      // All of them, and so the revert below goes back to an empty database.
      expect(applied.map((m) => m.name).sort()).toEqual(
        dataSource.migrations.map((m) => m.name ?? m.constructor.name).sort(),
      );
      await expectNoPendingChanges(dataSource);
      const schema = await schemaDump(dataSource);

      for (let i = 0; i < applied.length; i++) {
        await dataSource.undoLastMigration({ transaction: 'each' });
      }
      expect(await schemaObjects(dataSource, MIGRATIONS_TABLE)).toEqual([]);
      expect(Number((await dataSource.query(`SELECT COUNT(*) AS n FROM ${MIGRATIONS_TABLE}`))[0].n)).toBe(0);

      expect(await dataSource.runMigrations({ transaction: 'each' })).toHaveLength(applied.length);
      expect(await schemaDump(dataSource)).toEqual(schema);
      await expectNoPendingChanges(dataSource);
    } finally {
      await dataSource.destroy();
    }
  }, 180_000);
});

function removeSqlite(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    rmSync(path + suffix, { force: true });
  }
}
