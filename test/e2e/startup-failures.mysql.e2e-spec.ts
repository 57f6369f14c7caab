import * as mysql from 'mysql2/promise';
import { createServer } from 'node:net';
import { freePort } from 'test/e2e/support/child-process';
import { expectOneClearLine, failedStart, type FailedStart } from 'test/e2e/support/startup';
import { testDatabase } from 'test/e2e/support/test-database';

/**
 * With MySQL: wrong credentials fail the start-up at once (never retried), and a database without
 * the schema is refused before serving, each with one line.
 */
describe('start-up failures on MySQL', () => {
  const db = testDatabase(Number(process.env.E2E_DB_PID));
  const empty = `${db.database}_empty`;
  const results: Record<string, FailedStart> = {};
  let takenPort: number;

  const urlOf = (database: string, password?: string): string => {
    const url = new URL(db.serverUrl!);
    url.pathname = `/${database}`;
    if (password !== undefined) {
      url.password = password;
    }
    return url.toString();
  };

  beforeAll(async () => {
    const connection = await mysql.createConnection(db.serverUrl!);
    await connection.query(`CREATE DATABASE IF NOT EXISTS \`${empty}\``);
    await connection.end();
    const port = String(await freePort());
    const taken = createServer();
    takenPort = await new Promise<number>((resolve) =>
      taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)),
    );
    try {
      [results.wrongPassword, results.noSchema, results.workers] = await Promise.all([
        failedStart({ env: { PORT: port, DATABASE_URL: urlOf(db.database!, 'certainly-wrong') } }),
        failedStart({ env: { PORT: port, DATABASE_URL: urlOf(empty) } }),
        failedStart({ env: { PORT: String(takenPort), DATABASE_URL: db.location, WEB_CONCURRENCY: '2' } }),
      ]);
    } finally {
      taken.close();
    }
  }, 120_000);

  afterAll(async () => {
    const connection = await mysql.createConnection(db.serverUrl!);
    await connection.query(`DROP DATABASE IF EXISTS \`${empty}\``);
    await connection.end();
  });

  it('wrong credentials: refused once, no retries', () => {
    expectOneClearLine(
      results.wrongPassword,
      /^cannot connect to MySQL \S+: access denied \(check the user name and password in DATABASE_URL\): Access denied for user /,
    );
    expect(results.wrongPassword.failedAfterMs).toBeLessThan(3000);
    expect(results.wrongPassword.stdout).not.toContain('certainly-wrong');
    expect(results.wrongPassword.stdout).not.toMatch(/Retrying/);
  });

  it('workers that cannot listen: the primary stops them all instead of restarting them', () => {
    const { workers } = results;
    expect(workers.code).toBe(1);
    expect(workers.stderr).toBe('');
    const fatal = workers.lines.filter((line) => line.level === 60).map((line) => String(line.msg));
    const primary = fatal.filter((msg) => msg.startsWith('worker '));
    expect(primary).toEqual([expect.stringMatching(/^worker \d+ failed to start \(1\): stopping$/)]);
    // The first worker to fail says why; the other may be stopped before it gets as far.
    const theirs = fatal.filter((msg) => !msg.startsWith('worker '));
    expect(theirs.length).toBeGreaterThanOrEqual(1);
    expect(new Set(theirs)).toEqual(
      new Set([`cannot listen on 127.0.0.1:${takenPort}: the port is already in use by another process`]),
    );
    expect(workers.stdout).not.toMatch(/starting another/);
  });

  it('a database without the schema: refused before serving', () => {
    expectOneClearLine(
      results.noSchema,
      new RegExp(`^MySQL \\S+/${empty} has no schema yet: run npm run migration:run first$`),
    );
    expect(results.noSchema.failedAfterMs).toBeLessThan(5000);
  });
});
