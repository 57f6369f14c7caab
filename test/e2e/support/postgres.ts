import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** Where Debian's postgresql-15 puts its programs (.ci/run installs it where missing). */
export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'traffic-ops');

export const PG_USER = 'traffic_ops';
export const PG_PASSWORD = 'to-fixture-Pass';

/**
 * A private PostgreSQL 15 cluster for one test file: its own data directory under the temporary
 * directory and its own loopback port, never the machine's shared server. As root the programs run
 * as the `postgres` user (initdb refuses root).
 */
export class PrivateCluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'cdn-pg-'));
  port = 0;
  private readonly asUser = userInfo().uid === 0 ? 'postgres' : undefined;

  async start(): Promise<void> {
    this.port = await freePort();
    const data = join(this.dir, 'data');
    const pwfile = join(this.dir, 'pw');
    writeFileSync(pwfile, 'superuser-not-used\n');
    if (this.asUser) {
      const { uid, gid } = idsOf(this.asUser);
      chownSync(this.dir, uid, gid);
      chownSync(pwfile, uid, gid);
    }
    chmodSync(this.dir, 0o700);
    this.run('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      `--pwfile=${pwfile}`,
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ]);
    // The port was free when probed; another process may take it before the server binds it (the
    // suites run beside each other): then the start fails, and it is tried again on another port.
    for (let attempt = 1; ; attempt += 1) {
      try {
        this.run('pg_ctl', [
          '-D',
          data,
          '-l',
          join(this.dir, 'log'),
          '-w',
          '-t',
          '60',
          'start',
          '-o',
          `-c listen_addresses=127.0.0.1 -p ${this.port} -k ${this.dir} -c fsync=off -c max_connections=20`,
        ]);
        break;
      } catch (error) {
        const log = existsSync(join(this.dir, 'log')) ? readFileSync(join(this.dir, 'log'), 'utf8') : '';
        if (attempt === 3) {
          throw new Error(`${(error as Error).message}\n${log}`);
        }
        this.port = await freePort();
      }
    }
    const admin = new Client({ host: this.dir, port: this.port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE ROLE ${PG_USER} LOGIN PASSWORD '${PG_PASSWORD}'`);
    await admin.end();
  }

  /** A new database owned by the fixture's user, loaded with the given SQL files from the fixtures. */
  async createDatabase(name: string, files: string[], extraSql = ''): Promise<string> {
    const admin = new Client({ host: this.dir, port: this.port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} OWNER ${PG_USER} ENCODING 'UTF8'`);
    await admin.end();
    const url = this.url(name);
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      for (const file of files) {
        await client.query(readFileSync(join(FIXTURES, file), 'utf8'));
      }
      if (extraSql) {
        await client.query(extraSql);
      }
    } finally {
      await client.end();
    }
    return url;
  }

  url(database: string, password = PG_PASSWORD): string {
    return `postgres://${PG_USER}:${encodeURIComponent(password)}@127.0.0.1:${this.port}/${database}`;
  }

  stop(): void {
    if (existsSync(join(this.dir, 'data', 'postmaster.pid'))) {
      this.run('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private run(program: string, args: string[]): void {
    const path = join(PG_BIN, program);
    const result = this.asUser
      ? spawnSync('runuser', ['-u', this.asUser, '--', path, ...args], { encoding: 'utf8' })
      : spawnSync(path, args, { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(`${program} failed (${result.status}): ${result.stderr}${result.stdout}`);
    }
  }
}

export function postgresAvailable(): boolean {
  return existsSync(join(PG_BIN, 'initdb'));
}

function idsOf(user: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
