import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { type RunStart, runLine } from './sections';

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** 10,000 servers (one interface, two addresses, a profile) and 2,000 delivery services with their details. */
const GENERATE = `
INSERT INTO server (id, host_name, domain_name, tcp_port, https_port, phys_location, cachegroup, type, status, profile, cdn_id)
  SELECT 1000 + n, 'bench-' || n, 'east.example.net', 80, 443, 1, 4 + n % 3, 1, 2, 2, 2 FROM generate_series(1, 10000) n;
INSERT INTO server_profile (server, profile_name, priority) SELECT 1000 + n, 'EDGE_EAST', 0 FROM generate_series(1, 10000) n;
INSERT INTO interface (server, name, monitor, mtu) SELECT 1000 + n, 'eth0', true, 1500 FROM generate_series(1, 10000) n;
INSERT INTO ip_address (server, interface, address, gateway, service_address)
  SELECT 1000 + n, 'eth0', ('10.' || (n / 65536) || '.' || (n / 256 % 256) || '.' || (n % 256))::inet, NULL, true
  FROM generate_series(1, 10000) n;
INSERT INTO ip_address (server, interface, address, gateway, service_address)
  SELECT 1000 + n, 'eth0', ('2001:db8:b::' || to_hex(n) || '/64')::inet, NULL, true FROM generate_series(1, 10000) n;
INSERT INTO deliveryservice (id, xml_id, display_name, dscp, type, cdn_id, tenant_id, active, routing_name)
  SELECT 1000 + n, 'bench-ds-' || n, 'Bench ' || n, 0, 20, 2, 1, 'ACTIVE', 'cdn' FROM generate_series(1, 2000) n;
INSERT INTO regex (id, pattern, type) SELECT 1000 + n, '.*\\.bench-ds-' || n || '\\..*', 30 FROM generate_series(1, 2000) n;
INSERT INTO deliveryservice_regex (deliveryservice, regex, set_number) SELECT 1000 + n, 1000 + n, 0 FROM generate_series(1, 2000) n;
INSERT INTO origin (id, name, fqdn, protocol, is_primary, deliveryservice, tenant)
  SELECT 1000 + n, 'bench-origin-' || n, 'o' || n || '.example.org', 'http', true, 1000 + n, 1 FROM generate_series(1, 2000) n;
INSERT INTO deliveryservice_server (deliveryservice, server)
  SELECT 1000 + d, 1000 + (d * 7 + k * 997) % 10000 + 1 FROM generate_series(1, 2000) d, generate_series(1, 10) k;
`;

export interface ImportResult {
  servers: number;
  deliveryServices: number;
  rows: number;
  seconds: number;
  code: number | null;
}

/**
 * The import of a Traffic Ops database with 10,000 servers and 2,000 delivery services (issue 29)
 * into a fresh embedded database, timed from the command's start to its exit. PostgreSQL runs as
 * a private cluster on a loopback port of its own.
 */
export async function importBench(root: string): Promise<ImportResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cdn-bench-pg-'));
  const asPostgres = userInfo().uid === 0;
  const run = (program: string, args: string[]): void => {
    const path = join(PG_BIN, program);
    const result = asPostgres
      ? spawnSync('runuser', ['-u', 'postgres', '--', path, ...args], { encoding: 'utf8' })
      : spawnSync(path, args, { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(`${program}: ${result.stderr}`);
    }
  };
  if (asPostgres) {
    const id = (flag: string) =>
      Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const port = await freePort();
  const data = join(dir, 'data');
  try {
    run('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth-local=trust',
      '--auth-host=trust',
      '--no-sync',
      '-E',
      'UTF8',
    ]);
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      'start',
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`,
    ]);
    const admin = new Client({ host: dir, port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query('CREATE DATABASE traffic_ops');
    await admin.end();
    const url = `postgres://postgres@127.0.0.1:${port}/traffic_ops`;
    const client = new Client({ connectionString: url });
    await client.connect();
    const fixtures = join(root, 'test', 'fixtures', 'traffic-ops');
    await client.query(readFileSync(join(fixtures, 'schema-8.sql'), 'utf8'));
    await client.query(readFileSync(join(fixtures, 'data.sql'), 'utf8'));
    await client.query(readFileSync(join(fixtures, 'data-8.sql'), 'utf8'));
    await client.query(GENERATE);
    const counts = await client.query<{ servers: string; ds: string; rows: string }>(
      'SELECT (SELECT count(*) FROM server) AS servers, (SELECT count(*) FROM deliveryservice) AS ds, ' +
        '(SELECT sum(n_live_tup) FROM pg_stat_user_tables) AS rows',
    );
    await client.end();
    const sqlite = join(dir, 'target.sqlite');
    const env: NodeJS.ProcessEnv = { ...process.env, SQLITE_PATH: sqlite, LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    const cli = join(root, 'dist', 'src', 'cli.js');
    spawnSync(process.execPath, [cli, 'migration:run'], { env, encoding: 'utf8' });
    const started = process.hrtime.bigint();
    const result = spawnSync(process.execPath, [cli, 'import:traffic-ops', '--from', url], {
      env,
      encoding: 'utf8',
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (result.status !== 0) {
      throw new Error(`the import failed: ${result.stderr}`);
    }
    return {
      servers: Number(counts.rows[0].servers),
      deliveryServices: Number(counts.rows[0].ds),
      rows: Number(counts.rows[0].rows),
      seconds,
      code: result.status,
    };
  } finally {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // not started
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

export const IMPORT_HEADING = '## Import from Traffic Ops (issue 29)';

export function importReport(result: ImportResult, started: RunStart): string[] {
  return [
    IMPORT_HEADING,
    '',
    '`npm run cli -- import:traffic-ops` from a Traffic Ops 8.0 database in a private PostgreSQL 15',
    'cluster into a fresh embedded database, timed from the command’s start to its exit (Node start',
    'and the application context included). The target: under a minute.',
    'It needs PostgreSQL 15’s programs (PG_BIN) and runs only when asked; it writes this section, and a',
    'full `npm run bench` keeps it as the last run wrote it.',
    runLine('npm run bench -- --only=import', started),
    '',
    '| servers | delivery services | source rows | seconds |',
    '|---:|---:|---:|---:|',
    `| ${result.servers} | ${result.deliveryServices} | ${result.rows} | ${result.seconds.toFixed(1)} |`,
    '',
  ];
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
