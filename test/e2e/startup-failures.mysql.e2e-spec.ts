import * as mysql from 'mysql2/promise';
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
    [results.wrongPassword, results.noSchema] = await Promise.all([
      failedStart({ env: { PORT: port, DATABASE_URL: urlOf(db.database!, 'certainly-wrong') } }),
      failedStart({ env: { PORT: port, DATABASE_URL: urlOf(empty) } }),
    ]);
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

  it('a database without the schema: refused before serving', () => {
    expectOneClearLine(
      results.noSchema,
      new RegExp(`^MySQL \\S+/${empty} has no schema yet: run npm run migration:run first$`),
    );
    expect(results.noSchema.failedAfterMs).toBeLessThan(5000);
  });
});
