import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { uniqueName } from 'test/e2e/support/api';
import { type Finished, runCli, startServer } from 'test/e2e/support/child-process';
import { dropFreshDatabase, testDatabase } from 'test/e2e/support/test-database';
import { migrationNames } from 'test/e2e/support/migrations';
import { useApp } from 'test/e2e/support/suite';

const [PREVIOUS, LATEST] = migrationNames().slice(-2);

/**
 * `npm run cli -- <command>` (src/cli.ts as a child process) on the run's database, and on a fresh
 * one: migrations (which create a missing MySQL database), the schema version, user administration.
 * The server's first start on that fresh database shows the generated admin password once on stderr.
 */
describe('operator command line', () => {
  const db = testDatabase(Number(process.env.E2E_DB_PID));
  const freshName = `${db.database ?? 'sqlite'}_cli`;
  // SQLite: a directory of its own (the embedded database keeps its session secret next to the file).
  const freshDir = db.driver === 'mysql' ? '' : mkdtempSync(join(tmpdir(), 'cdn-e2e-cli-'));
  const fresh: Record<string, string | undefined> =
    db.driver === 'mysql'
      ? { DATABASE_URL: `${db.serverUrl!.replace(/\/$/, '')}/${freshName}`, SQLITE_PATH: undefined }
      : { SQLITE_PATH: join(freshDir, 'cdn.sqlite'), DATABASE_URL: undefined };

  const dropFresh = (): Promise<void> => dropFreshDatabase(db, freshName, freshDir);

  /** The fresh database's story: migrated from nothing, one migration undone and redone, first start. */
  const freshRun: Record<string, Finished> = {};
  let firstStart: { stderr: string; stdout: string; signIn: number; wrongSignIn: number };

  /** User administration on the run's database. */
  const names = { flag: uniqueName('cli-flag'), env: uniqueName('cli-env'), refused: uniqueName('cli-bad') };
  const userRun: Record<string, Finished> = {};

  // The run's database has its first admin before the command line adds users.
  const { app, admin } = useApp();

  beforeAll(async () => {
    if (db.driver === 'mysql') {
      await dropFresh();
    }
    const onFresh = async () => {
      const env = { ...fresh, ADMIN_PASSWORD: undefined, SESSION_SECRET: undefined, LOG_LEVEL: 'warn' };
      freshRun.run = await runCli(['migration:run'], { env });
      freshRun.revert = await runCli(['migration:revert'], { env });
      freshRun.version = await runCli(['schema:version'], { env });
      freshRun.rerun = await runCli(['migration:run'], { env });
      const { server, port } = await startServer({
        env: { ...env, SESSION_SECRET: db.driver === 'mysql' ? 'x'.repeat(40) : undefined },
      });
      const password = /^ {6}(\S+)$/m.exec(server.stderr)?.[1] ?? '';
      const signIn = (p: string) =>
        request(`http://127.0.0.1:${port}`).post('/api/4.0/user/login').send({ u: 'admin', p });
      firstStart = {
        stderr: server.stderr,
        stdout: server.stdout,
        signIn: (await signIn(password)).status,
        wrongSignIn: (await signIn(`${password}x`)).status,
      };
      server.kill();
      await server.exited;
    };
    const onRunDatabase = async () => {
      [userRun.flag, userRun.env, userRun.shortPassword, userRun.missingPassword] = await Promise.all([
        runCli([
          'user:create',
          ...['--username', names.flag, '--role', 'operations', '--tenant', 'unassigned'],
          ...['--email', `${names.flag}@example.net`, '--password', 'first-Password-41'],
        ]),
        runCli(
          [
            'user:create',
            ...['--username', names.env, '--role', 'read-only', '--tenant', 'root'],
            ...['--email', `${names.env}@example.net`, '--full-name', 'From The Environment'],
          ],
          { env: { NEW_PASSWORD: 'env-Password-42' } },
        ),
        runCli([
          'user:create',
          ...['--username', names.refused, '--role', 'admin', '--tenant', 'root'],
          ...['--email', `${names.refused}@example.net`, '--password', 'short'],
        ]),
        runCli(['user:password', '--username', names.flag], { env: { NEW_PASSWORD: undefined } }),
      ]);
      [userRun.password, userRun.list] = await Promise.all([
        runCli(['user:password', '--username', names.flag], { env: { NEW_PASSWORD: 'second-Password-44' } }),
        runCli(['user:list']),
      ]);
    };
    await Promise.all([onFresh(), onRunDatabase()]);
  }, 240_000);

  afterAll(async () => {
    await dropFresh();
  });

  describe('migrations and the schema version', () => {
    it('migration:run creates a missing database and applies every migration', () => {
      expect(freshRun.run.stderr).toBe('');
      expect(freshRun.run.code).toBe(0);
      if (db.driver === 'mysql') {
        expect(freshRun.run.stdout).toMatch(new RegExp(`^created the database: MySQL \\S+/${freshName}\\n`));
      }
      expect(freshRun.run.stdout).toMatch(/^applied (\d+) migration\(s\): Foundation1763770000000, /m);
      expect(freshRun.run.stdout).toContain(`\nschema version: ${LATEST}\n`);
    });

    it('migration:revert undoes the last one; schema:version names what is applied and pending', () => {
      expect(freshRun.revert).toMatchObject({ code: 0, stderr: '' });
      expect(freshRun.revert.stdout).toBe(`reverted ${LATEST}\nschema version: ${PREVIOUS}\n`);
      expect(freshRun.version).toMatchObject({ code: 0, stderr: '' });
      expect(freshRun.version.stdout).toMatch(
        new RegExp(
          `^schema version: ${PREVIOUS}\\napplied: \\d+, pending: 1 \\(${LATEST}: run npm run migration:run\\)\\n$`,
        ),
      );
      expect(freshRun.rerun).toMatchObject({ code: 0, stderr: '' });
      expect(freshRun.rerun.stdout).toBe(`applied 1 migration(s): ${LATEST}\nschema version: ${LATEST}\n`);
    });
  });

  describe("the first admin's generated password", () => {
    it('is shown once on stderr, in a block of its own, even at LOG_LEVEL=warn, and never in the log', () => {
      const block =
        /\n={72}\n {2}FIRST START: created the user 'admin'[^\n]*\n\n {6}(\S+)\n\n[^\n]*\n[^\n]*\n={72}\n/.exec(
          firstStart.stderr,
        );
      expect(block).not.toBeNull();
      const password = block![1];
      expect(password.length).toBeGreaterThanOrEqual(16);
      expect(firstStart.stderr.split(password)).toHaveLength(2);
      expect(firstStart.stdout).not.toContain(password);
      expect(firstStart.stdout).toContain("created the first user 'admin' with a generated password");
      expect(firstStart.signIn).toBe(200);
      expect(firstStart.wrongSignIn).toBe(401);
    });
  });

  describe('users', () => {
    const signIn = (username: string, password: string) =>
      request(app.getHttpServer()).post('/api/4.0/user/login').send({ u: username, p: password });

    const found = async (username: string): Promise<Record<string, unknown>[]> => {
      const res = await admin.get(`users?username=${username}`);
      expect(res.status).toBe(200);
      return (res.body as { response: Record<string, unknown>[] }).response;
    };

    it('user:create makes a user with the given role and tenant (password from --password or NEW_PASSWORD)', async () => {
      expect(userRun.flag).toMatchObject({ code: 0, stderr: '' });
      expect(userRun.flag.stdout).toMatch(
        new RegExp(`^created the user '${names.flag}' \\(id \\d+, role operations, tenant unassigned\\)\\n$`),
      );
      expect(userRun.env).toMatchObject({ code: 0, stderr: '' });
      expect(await found(names.flag)).toEqual([
        expect.objectContaining({ username: names.flag, role: 'operations', tenant: 'unassigned' }),
      ]);
      expect(await found(names.env)).toEqual([
        expect.objectContaining({
          username: names.env,
          role: 'read-only',
          tenant: 'root',
          email: `${names.env}@example.net`,
          fullName: 'From The Environment',
        }),
      ]);
      expect((await signIn(names.env, 'env-Password-42')).status).toBe(200);
    }, 30_000);

    it("user:create refuses what the API refuses, with the API's words, and writes nothing", async () => {
      expect(userRun.shortPassword).toMatchObject({
        code: 1,
        stdout: '',
        stderr: 'user:create: Password must be greater than 7 characters.\n',
      });
      expect(userRun.missingPassword.code).toBe(2);
      expect(userRun.missingPassword.stderr).toMatch(
        /^the new password is required: --password PASSWORD, or NEW_PASSWORD in the environment\n\nUsage: npm run cli -- <command>/,
      );
      expect(await found(names.refused)).toEqual([]);
    }, 30_000);

    it('user:password sets a new password: the new one signs in, the old one no longer', async () => {
      expect(userRun.password).toMatchObject({ code: 0, stderr: '' });
      expect(userRun.password.stdout).toMatch(new RegExp(`^set a new password for the user '${names.flag}'`));
      expect((await signIn(names.flag, 'second-Password-44')).status).toBe(200);
      expect((await signIn(names.flag, 'first-Password-41')).status).toBe(401);
    }, 30_000);

    it('user:list shows every user with role, tenant and email', () => {
      expect(userRun.list).toMatchObject({ code: 0, stderr: '' });
      const lines = userRun.list.stdout.split('\n');
      expect(lines[0]).toMatch(/^id +username +role +tenant +email +last sign-in$/);
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(`^\\d+ +${names.flag} +operations +unassigned +${names.flag}@example.net +\\S+$`),
        ),
      );
      expect(lines).toContainEqual(expect.stringMatching(/^\d+ +admin +admin +root +/));
    });
  });
});
