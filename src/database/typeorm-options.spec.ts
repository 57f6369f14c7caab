import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { classifyDbError } from 'src/common/database/db-error';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';

describe('database options: the embedded SQLite file', () => {
  const path = join(tmpdir(), `cdn-busy-${process.pid}.sqlite`);
  let dataSource: DataSource;

  beforeEach(async () => {
    dataSource = new DataSource(buildTypeOrmOptions({ driver: 'sqlite', path, busyTimeoutMs: 300 }));
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE item (name TEXT)');
  });

  afterEach(async () => {
    await dataSource.destroy();
    for (const suffix of ['', '-wal', '-shm']) {
      rmSync(path + suffix, { force: true });
    }
  });

  it('waits for a lock another process holds no longer than the busy timeout, then fails as contention', async () => {
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      const start = Date.now();
      const error: unknown = await dataSource
        .query("INSERT INTO item (name) VALUES ('x')")
        .catch((e: unknown) => e);
      const waited = Date.now() - start;
      expect(classifyDbError(error)).toEqual({ kind: 'contention' });
      expect(waited).toBeGreaterThanOrEqual(250);
      expect(waited).toBeLessThan(2000);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await dataSource.query("INSERT INTO item (name) VALUES ('y')");
    expect(await dataSource.query('SELECT name FROM item')).toEqual([{ name: 'y' }]);
  });
});
