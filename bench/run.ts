/**
 * `npm run bench`: load scenarios against the production build on MySQL, written to
 * docs/benchmarks.md. The server runs as its own process on a dedicated database
 * (`<db>_bench`, from BENCH_DATABASE_URL, default mysql://root@127.0.0.1:3306/test), is signed in
 * to as admin, and each scenario runs autocannon for BENCH_SECONDS (default 10) per connection count.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as mysql from 'mysql2/promise';
import type { Request, Response } from 'express';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { SERVING_NODE_FLAGS, workerEnvAdditions } from 'src/bootstrap/worker-runtime';
import { createRootLogger } from 'src/common/logging/logger';
import { requestLog } from 'src/common/logging/request-log';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';
import { BenchClient, median } from './client';
import { OBSERVABILITY_HEADING, observabilityCosts } from './observability';
import { CLUSTER_HEADING, clusterBench, clusterReport } from './cluster';
import { IMPORT_HEADING, importBench, importReport } from './import';
import { keptSection, startOfRun, writeSection } from './sections';
import { type FloorDatabase, type FloorResult, floorReport, measureFloor } from './floor';
import { COMPARISON_DATASET, createDataset } from './dataset';
import { type FleetResult, fleetOptions, fleetReport, measureFleet, ORIGINAL_FLEET } from './fleet';
import {
  type ConfigResult,
  comparisonReport,
  measureConfiguration,
  selfSignedCertificate,
} from './comparison';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (options: object) => Promise<AutocannonResult>;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}

const ROOT = join(__dirname, '..', '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 3917);
const PASSWORD = 'bench-admin-password';
const BASE = `http://127.0.0.1:${PORT}`;

async function prepareDatabase(): Promise<string> {
  const url = new URL(process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/test');
  const database = `${url.pathname.slice(1) || 'test'}_bench`;
  url.pathname = '/';
  const connection = await mysql.createConnection(url.toString());
  await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
  await connection.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await connection.end();
  url.pathname = `/${database}`;
  const dataSource = new DataSource(
    buildTypeOrmOptions({
      driver: 'mysql',
      url: url.toString(),
      poolSize: 2,
      queryTimeoutMs: 0,
      acquireTimeoutMs: 10000,
    }),
  );
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  await dataSource.destroy();
  return url.toString();
}

/**
 * A fresh bench database for the floor: the comparison data set's CDNs (its extra one and its own), its
 * cache group (the ASNs' the write floor creates) and a user (the change log's).
 */
async function floorDatabase(): Promise<FloorDatabase> {
  const url = await prepareDatabase();
  const connection = await mysql.createConnection(url);
  try {
    await connection.query(
      "INSERT INTO cdn (name, domain_name, dnssec_enabled) VALUES ('bench-extra', 'extra.bench.example.net', 0), " +
        "('bench', 'bench.example.net', 0)",
    );
    await connection.query(
      "INSERT INTO tm_user (username, role, tenant_id) SELECT 'floor', r.id, t.id FROM role r, tenant t " +
        "WHERE r.name = 'admin' AND t.name = 'root'",
    );
    const [inserted] = await connection.query<mysql.ResultSetHeader>(
      "INSERT INTO cachegroup (name, short_name, latitude, longitude, type) SELECT 'bench-edge', 'bench-edge', " +
        "39.74, -104.99, id FROM type WHERE name = 'EDGE_LOC'",
    );
    return { url, cachegroupId: inserted.insertId };
  } finally {
    await connection.end();
  }
}

/** The server on `databaseUrl`; `workers` undefined leaves WEB_CONCURRENCY to its default. */
function startServer(
  databaseUrl: string,
  workers: number | undefined,
  logLevel = 'warn',
  extraEnv: Record<string, string> = {},
): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    ADMIN_PASSWORD: PASSWORD,
    SESSION_SECRET: 'bench-session-secret-of-at-least-32-characters',
    LOG_LEVEL: logLevel,
    // Production's settings (those of `npm run start:prod`, and the malloc setting the README asks of a
    // single process; the primary of several workers sets it itself).
    ...workerEnvAdditions(process.env),
    ...extraEnv,
  };
  if (workers === undefined) {
    delete env.WEB_CONCURRENCY;
  } else {
    env.WEB_CONCURRENCY = String(workers);
  }
  return spawn(process.execPath, [...SERVING_NODE_FLAGS, join(ROOT, 'dist', 'src', 'main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/**
 * The comparison with the original (bench/comparison.ts): HTTP and HTTPS, each with one worker and
 * with the default worker count, each on a fresh database.
 */
async function comparison(): Promise<ConfigResult[]> {
  const tls = selfSignedCertificate();
  const configs: ConfigResult[] = [];
  try {
    for (const protocol of ['http', 'https'] as const) {
      for (const workers of [1, undefined]) {
        const databaseUrl = await prepareDatabase();
        const label = workers === undefined ? `default (${availableParallelism()})` : String(workers);
        console.log(`comparison: ${protocol}, workers ${label}`);
        const server = startServer(
          databaseUrl,
          workers,
          'warn',
          protocol === 'https' ? { TLS_CERT_FILE: tls.cert, TLS_KEY_FILE: tls.key } : {},
        );
        try {
          const base = `${protocol}://127.0.0.1:${PORT}`;
          await waitForServer(base);
          configs.push({
            protocol,
            workers: label,
            ...(await measureConfiguration(base, server.pid!, PASSWORD, SECONDS)),
          });
        } finally {
          await stop(server);
        }
      }
    }
  } finally {
    tls.dispose();
  }
  return configs;
}

const FLEET = fleetOptions(process.env);

/**
 * The fleet scenario (bench/fleet.ts) on a fresh database with the comparison data set: the server in
 * its default configuration (workers unset) over HTTPS, as the original is measured.
 */
async function fleet(): Promise<FleetResult[]> {
  const tls = selfSignedCertificate();
  const server = startServer(await prepareDatabase(), undefined, 'warn', {
    TLS_CERT_FILE: tls.cert,
    TLS_KEY_FILE: tls.key,
  });
  try {
    const base = `https://127.0.0.1:${PORT}`;
    await waitForServer(base);
    const client = new BenchClient(base);
    try {
      await client.login('admin', PASSWORD);
      await createDataset(client, COMPARISON_DATASET, () => 0);
    } finally {
      client.close();
    }
    console.log(`fleet: sizes ${FLEET.sizes.join(', ')}, ${FLEET.rounds} rounds of ${FLEET.periodSeconds} s`);
    return await measureFleet(base, server.pid!, 'admin', PASSWORD, FLEET);
  } finally {
    await stop(server);
    tls.dispose();
  }
}

/** The fleet section: this run's figures, then the original's (reference figures, bench/fleet.ts). */
function fleetSection(results: FleetResult[]): string[] {
  return [
    '## A fleet of caches polling (t3c every period, with If-Modified-Since)',
    '',
    "Each simulated cache runs t3c's calls (docs/t3c.md) for its own host name once per period, starts spread",
    'evenly over the period: a sign-in on 5.0 on a new connection, then 17 GETs: the 14 configuration calls with',
    'If-Modified-Since as t3c sends it from its previous run (none on its first), the 3 update-status calls',
    "without. The CDN's SSL keys (t3c's call 4) are left out: the original here has no Traffic Vault and",
    'answers it 500. A writer changes one delivery service every 10 s. The data set is',
    "the comparison's (1,000 servers, 300 delivery services); one instance in its default configuration over",
    'HTTPS. "CPU µs/first run" is the server\'s CPU time during the first round divided by its runs; "later',
    'run" the same over the other rounds. Sizes grow until one exceeds the bound (it is shown).',
    'Command: `npm run bench -- --only=fleet` (FLEET_SIZES, FLEET_PERIOD_SECONDS, FLEET_ROUNDS).',
    '',
    ...fleetReport('This service', results, FLEET),
    '',
    ...fleetReport(
      `The original (${ORIGINAL_FLEET.measured})`,
      ORIGINAL_FLEET.results,
      ORIGINAL_FLEET.options,
    ),
    '',
  ];
}

async function waitForServer(base: string): Promise<void> {
  const client = new BenchClient(base);
  try {
    for (let attempt = 0; attempt < 600; attempt++) {
      try {
        if ((await client.request('GET', '/api/4.0/ping')).status === 200) {
          return;
        }
      } catch {
        // not listening yet
      }
      await sleep(200);
    }
  } finally {
    client.close();
  }
  throw new Error(`the server did not come up at ${base}`);
}

async function login(): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const res = await fetch(`${BASE}/api/4.0/user/login`, {
        method: 'POST',
        body: JSON.stringify({ u: 'admin', p: PASSWORD }),
      });
      if (res.status === 200) {
        return res.headers.getSetCookie()[0].split(';')[0];
      }
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error('the server did not come up');
}

async function seed(cookie: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${BASE}/api/4.0/cdns`, {
      method: 'POST',
      headers: { Cookie: cookie },
      body: JSON.stringify({
        name: `bench-cdn-${i}`,
        domainName: `bench${i}.example.net`,
        dnssecEnabled: i % 2 === 0,
      }),
    });
    if (res.status !== 200) {
      throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
    }
  }
}

interface Row {
  workers: number;
  scenario: string;
  connections: number;
  result: AutocannonResult;
}

/** wrk (C, one thread) when installed: it leaves more of this 2-core machine to the server. */
const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined;
const LOAD_GENERATOR = HAS_WRK ? 'wrk' : 'autocannon';

function wrkMs(output: string, percentile: string): number {
  const match = new RegExp(`^\\s*${percentile}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(output);
  if (!match) {
    return NaN;
  }
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

function runWrk(
  url: string,
  connections: number,
  headers: Record<string, string>,
  seconds: number,
): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', [
      '-t1',
      `-c${connections}`,
      `-d${seconds}s`,
      '--latency',
      ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
      url,
    ]);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN);
      const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
      const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
        .exec(output)
        ?.slice(1)
        .reduce((sum, n) => sum + Number(n), 0);
      resolve({
        requests: {
          average: rps,
          total: Number(/(\d+) requests in/.exec(output)?.[1] ?? Math.round(rps * seconds)),
        },
        latency: { p50: wrkMs(output, '50'), p99: wrkMs(output, '99'), average: NaN },
        non2xx,
        errors: errors ?? 0,
      });
    });
  });
}

async function run(
  path: string,
  connections: number,
  cookie: string,
  seconds = SECONDS,
  extraHeaders: Record<string, string> = {},
): Promise<AutocannonResult> {
  const headers = { Cookie: cookie, ...extraHeaders };
  if (HAS_WRK) {
    return runWrk(`${BASE}${path}`, connections, headers, seconds);
  }
  return autocannon({ url: `${BASE}${path}`, connections, duration: seconds, headers });
}

/** One timed request of a bulk scenario. */
interface Timing {
  scenario: string;
  ms: number;
  status: number;
}

function report(
  configs: ConfigResult[],
  fleetResults: FleetResult[],
  floor: FloorResult[],
  rows: Row[],
  timings: Timing[],
  costs: Cost[],
  snapshot?: SnapshotResult,
): string {
  const lines = [
    '# Benchmarks',
    '',
    `Produced by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}; machine: ${cpus().length} × ` +
      `${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, MariaDB on 127.0.0.1.`,
    '',
    ...comparisonReport(configs, SECONDS),
    ...fleetSection(fleetResults),
    ...floorReport(floor, SECONDS),
    '## Earlier scenarios',
    '',
    'Produced by `npm run bench` (bench/run.ts): the production build (`npm run start:prod`) on MySQL',
    `(MariaDB on 127.0.0.1), signed in as admin, ${LOAD_GENERATOR} on the same machine for ${SECONDS} s per row.`,
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
    `Run: ${new Date().toISOString()}.`,
    '',
    'One server with one worker on a database of its own; request log lines off (`LOG_LEVEL=warn`, only 5xx',
    'are logged).',
    '',
    '| workers | scenario | connections | requests/s | p50 ms | p99 ms | non-2xx | errors |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      ({ workers, scenario, connections, result }) =>
        `| ${workers} | ${scenario} | ${connections} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ` +
        `${result.latency.p99} | ${result.non2xx} | ${result.errors} |`,
    ),
    '',
    'Issue 3: `GET /asns?limit=100` should cost the same with 100 and with 10,000 ASNs in the table (paging',
    'in SQL, on the unique index of `asn`).',
    '',
    ...(timings.length === 0
      ? []
      : [
          '## Bulk operations (issue 4)',
          '',
          'One request each, timed from the client, on a cache group of 1,000 EDGE servers and 50 delivery',
          'services of one CDN (rows inserted directly in SQL). Each should answer well under a second.',
          '',
          '| scenario | status | ms |',
          '|---|---:|---:|',
          ...timings.map(({ scenario, status, ms }) => `| ${scenario} | ${status} | ${Math.round(ms)} |`),
          '',
        ]),
    ...(snapshot ? snapshotReport(snapshot) : []),
    ...costReport(costs),
    ...KEPT_SECTIONS.flatMap((heading) => keptSection(BENCHMARKS_FILE, heading)),
  ];
  return lines.join('\n');
}

/**
 * The headings of the sections that the parts run only when asked write (`--only=cluster`,
 * `--only=observability`, `--only=import`): a full run keeps each as the last run of its part wrote it.
 */
const KEPT_SECTIONS = [IMPORT_HEADING, CLUSTER_HEADING, OBSERVABILITY_HEADING];

const BENCHMARKS_FILE = join(ROOT, 'docs', 'benchmarks.md');

/**
 * `npm run bench -- --only=<part>`: one part alone. The first five print their section and leave
 * docs/benchmarks.md as it is; the last three run only when asked and write (replace) their own
 * section of it, which a full run keeps:
 * - `comparison`: against the original;
 * - `fleet`: caches polling as t3c does (bench/fleet.ts);
 * - `floor`: the stack's own cost of a ping;
 * - `request-log`: the request log's cost rows;
 * - `snapshot`: GET cdns/{name}/snapshot/new on a big CDN;
 * - `observability`: metrics off/on, tracing on (bench/observability.ts);
 * - `cluster`: a Galera cluster of three nodes against one (bench/cluster.ts);
 * - `import`: import:traffic-ops of 10,000 servers and 2,000 delivery services (needs PostgreSQL 15's
 *   programs).
 */
const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
const PARTS_ALONE = [
  'comparison',
  'fleet',
  'floor',
  'request-log',
  'snapshot',
  'observability',
  'cluster',
  'import',
];

async function main(): Promise<void> {
  if (ONLY !== undefined && !PARTS_ALONE.includes(ONLY)) {
    throw new Error(`--only=${ONLY}: the parts that run alone are ${PARTS_ALONE.join(', ')}`);
  }
  if (ONLY === 'cluster') {
    const started = startOfRun();
    writeSection(
      BENCHMARKS_FILE,
      CLUSTER_HEADING,
      clusterReport(await clusterBench(ROOT, PORT, SECONDS), SECONDS, started),
    );
    return;
  }
  if (ONLY === 'comparison') {
    console.log(comparisonReport(await comparison(), SECONDS).join('\n'));
    return;
  }
  if (ONLY === 'fleet') {
    console.log(fleetSection(await fleet()).join('\n'));
    return;
  }
  if (ONLY === 'import') {
    const started = startOfRun();
    writeSection(BENCHMARKS_FILE, IMPORT_HEADING, importReport(await importBench(ROOT), started));
    return;
  }
  if (ONLY === 'floor') {
    console.log(
      floorReport(await measureFloor(ROOT, PORT, SECONDS, await floorDatabase()), SECONDS).join('\n'),
    );
    return;
  }
  if (ONLY === 'request-log') {
    console.log(costReport(await mechanismCosts(await prepareDatabase(), true)).join('\n'));
    return;
  }
  if (ONLY === 'observability') {
    const started = startOfRun();
    const databaseUrl = await prepareDatabase();
    const report = await observabilityCosts(started, {
      startServer: (logLevel, extraEnv) => startServer(databaseUrl, 1, logLevel, extraEnv),
      login,
      run: (path, connections, cookie, seconds) => run(path, connections, cookie, seconds),
      cpuMicros,
      stop,
    });
    writeSection(BENCHMARKS_FILE, OBSERVABILITY_HEADING, report);
    return;
  }
  if (ONLY === 'snapshot') {
    const databaseUrl = await prepareDatabase();
    const server = startServer(databaseUrl, 1);
    try {
      const result = await snapshotNew(databaseUrl, await login(), server.pid!);
      console.log(snapshotReport(result).join('\n'));
    } finally {
      await stop(server);
    }
    return;
  }
  const configs = await comparison();
  const fleetResults = await fleet();
  const floor = await measureFloor(ROOT, PORT, SECONDS, await floorDatabase());
  const databaseUrl = await prepareDatabase();
  const rows: Row[] = [];
  const timings: Timing[] = [];
  let snapshot: SnapshotResult | undefined;
  const server = startServer(databaseUrl, 1);
  try {
    const cookie = await login();
    await seed(cookie);
    rows.push(...(await asnPaging(databaseUrl, cookie)));
    timings.push(...(await cachegroupBulk(databaseUrl, cookie)));
    snapshot = await snapshotNew(databaseUrl, cookie, server.pid!);
  } finally {
    await stop(server);
  }
  const costs = await mechanismCosts(databaseUrl);
  writeFileSync(
    join(ROOT, 'docs', 'benchmarks.md'),
    report(configs, fleetResults, floor, rows, timings, costs, snapshot),
  );
  console.log('wrote docs/benchmarks.md');
}

/**
 * Issue 3: a list pages in SQL, so `limit=100` costs the same whether the table holds 100 or
 * 10,000 rows. The rows are inserted directly (the scenario measures reads, not the writes).
 */
async function asnPaging(databaseUrl: string, cookie: string): Promise<Row[]> {
  const db = await mysql.createConnection(databaseUrl);
  const rows: Row[] = [];
  try {
    await db.query(
      "INSERT INTO cachegroup (name, short_name, type) SELECT 'bench-asn-cg', 'bench-asn-cg', id FROM type WHERE name = 'EDGE_LOC'",
    );
    const [found] = await db.query<mysql.RowDataPacket[]>(
      "SELECT id FROM cachegroup WHERE name = 'bench-asn-cg'",
    );
    const cachegroup = Number(found[0].id);
    const insertAsns = async (from: number, to: number): Promise<void> => {
      for (let start = from; start <= to; start += 1000) {
        const values = [];
        for (let asn = start; asn <= Math.min(to, start + 999); asn++) {
          values.push([asn, cachegroup]);
        }
        await db.query('INSERT INTO asn (asn, cachegroup) VALUES ?', [values]);
      }
    };
    const measure = async (label: string, path: string): Promise<void> => {
      await run(path, 8, cookie, 2); // warm-up
      for (const connections of [1, 32]) {
        const result = await run(path, connections, cookie);
        rows.push({ workers: 1, scenario: `GET ${path} (${label})`, connections, result });
        console.log(`GET ${path} (${label}) c=${connections}: ${Math.round(result.requests.average)} req/s`);
      }
    };
    await insertAsns(1, 100);
    await measure('100 ASNs', '/api/4.0/asns?limit=100');
    await insertAsns(101, 10_000);
    await measure('10,000 ASNs', '/api/4.0/asns?limit=100');
    await measure('10,000 ASNs, last page', '/api/4.0/asns?limit=100&page=100');
  } finally {
    await db.end();
  }
  return rows;
}

/**
 * Issue 4: the cache-group bulk operations are set-based. A cache group of 1,000 EDGE servers and
 * 50 delivery services of one CDN are inserted directly; then one POST /cachegroups/{id}/deliveryservices
 * (50,000 assignments) and one queue and one dequeue of /cachegroups/{id}/queue_update are timed.
 */
async function cachegroupBulk(databaseUrl: string, cookie: string): Promise<Timing[]> {
  const db = await mysql.createConnection(databaseUrl);
  const timings: Timing[] = [];
  const id = async (sql: string, params: unknown[] = []): Promise<number> => {
    const [found] = await db.query<mysql.RowDataPacket[]>(sql, params);
    return Number(found[0].id);
  };
  try {
    await db.query("INSERT INTO division (name) VALUES ('bench-bulk-division')");
    const division = await id("SELECT id FROM division WHERE name = 'bench-bulk-division'");
    await db.query("INSERT INTO region (name, division) VALUES ('bench-bulk-region', ?)", [division]);
    const region = await id("SELECT id FROM region WHERE name = 'bench-bulk-region'");
    await db.query(
      "INSERT INTO phys_location (name, short_name, region) VALUES ('bench-bulk-pl', 'bench-bulk-pl', ?)",
      [region],
    );
    const physLocation = await id("SELECT id FROM phys_location WHERE name = 'bench-bulk-pl'");
    await db.query("INSERT INTO cdn (name, domain_name) VALUES ('bench-bulk-cdn', 'bulk.example.net')");
    const cdn = await id("SELECT id FROM cdn WHERE name = 'bench-bulk-cdn'");
    await db.query(
      "INSERT INTO cachegroup (name, short_name, type) SELECT 'bench-bulk-cg', 'bench-bulk-cg', id FROM type WHERE name = 'EDGE_LOC'",
    );
    const cachegroup = await id("SELECT id FROM cachegroup WHERE name = 'bench-bulk-cg'");
    const edge = await id("SELECT id FROM type WHERE name = 'EDGE'");
    const online = await id("SELECT id FROM status WHERE name = 'ONLINE'");
    const http = await id("SELECT id FROM type WHERE name = 'HTTP'");
    const tenant = await id("SELECT id FROM tenant WHERE name = 'root'");
    const servers = Array.from({ length: 1000 }, (_, i) => [
      `bench-edge-${i}`,
      'example.net',
      physLocation,
      cachegroup,
      edge,
      online,
      cdn,
    ]);
    await db.query(
      'INSERT INTO server (host_name, domain_name, phys_location, cachegroup, type, status, cdn_id) VALUES ?',
      [servers],
    );
    await insertDeliveryServices(db, 'bench-ds', 50, { type: http, cdn, tenant });
    const [dsRows] = await db.query<mysql.RowDataPacket[]>(
      "SELECT id FROM deliveryservice WHERE xml_id LIKE 'bench-ds-%' ORDER BY id",
    );
    const dsIds = dsRows.map((row) => Number(row.id));

    const timed = async (scenario: string, path: string, body: object): Promise<void> => {
      const started = performance.now();
      const res = await fetch(`${BASE}${path}`, {
        method: 'POST',
        headers: { Cookie: cookie },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      const ms = performance.now() - started;
      timings.push({ scenario, ms, status: res.status });
      console.log(`${scenario}: ${res.status} in ${Math.round(ms)} ms`);
    };
    await timed(
      'POST /api/4.0/cachegroups/{id}/deliveryservices (1,000 servers × 50 delivery services)',
      `/api/4.0/cachegroups/${cachegroup}/deliveryservices`,
      { deliveryServices: dsIds },
    );
    const [[{ assigned }]] = await db.query<mysql.RowDataPacket[]>(
      'SELECT COUNT(*) AS assigned FROM deliveryservice_server',
    );
    console.log(`assignments written: ${assigned}`);
    timings[timings.length - 1].scenario += `, ${Number(assigned).toLocaleString('en-US')} rows written`;
    await timed(
      'POST /api/4.0/cachegroups/{id}/queue_update queue (1,000 servers)',
      `/api/4.0/cachegroups/${cachegroup}/queue_update`,
      { action: 'queue', cdn: 'bench-bulk-cdn' },
    );
    await timed(
      'POST /api/4.0/cachegroups/{id}/queue_update dequeue (1,000 servers)',
      `/api/4.0/cachegroups/${cachegroup}/queue_update`,
      { action: 'dequeue', cdnId: cdn },
    );
  } finally {
    await db.end();
  }
  return timings;
}

/** What GET cdns/{name}/snapshot/new answered and cost, over SNAPSHOT_REQUESTS requests in a row. */
interface SnapshotResult {
  servers: number;
  deliveryServices: number;
  cacheGroups: number;
  bytes: number;
  statuses: number[];
  /** Client-side latency of each request, in ms. */
  ms: number[];
  /** The server's CPU time (user + system) per request, in ms. */
  cpuMs: number;
}

const SNAPSHOT_REQUESTS = 20;
const SNAPSHOT_CDN = 'bench-snap-cdn';

/**
 * `GET cdns/{name}/snapshot/new` computes the CRConfig of a CDN of 1,000 EDGE servers (each
 * with a profile, an interface and an address, serving 3 delivery services), 300 delivery services
 * (each with a HOST_REGEXP) and 50 cache groups — the data set of test/e2e/snapshots.e2e-spec.ts
 * ("speed"), which shows the document takes the same fixed set of queries as a small CDN's. The rows
 * are inserted directly, in a few set-based statements. After 3 warm-up requests, SNAPSHOT_REQUESTS
 * requests one after the other (1 worker), timed from the client, with the server's CPU time from
 * /proc; the target is well within a second each.
 */
async function snapshotNew(databaseUrl: string, cookie: string, serverPid: number): Promise<SnapshotResult> {
  const db = await mysql.createConnection(databaseUrl);
  const id = async (sql: string, params: unknown[] = []): Promise<number> => {
    const [found] = await db.query<mysql.RowDataPacket[]>(sql, params);
    return Number(found[0].id);
  };
  try {
    await db.query("INSERT INTO division (name) VALUES ('bench-snap-division')");
    const division = await id("SELECT id FROM division WHERE name = 'bench-snap-division'");
    await db.query("INSERT INTO region (name, division) VALUES ('bench-snap-region', ?)", [division]);
    const region = await id("SELECT id FROM region WHERE name = 'bench-snap-region'");
    await db.query(
      "INSERT INTO phys_location (name, short_name, region) VALUES ('bench-snap-pl', 'bench-snap-pl', ?)",
      [region],
    );
    const physLocation = await id("SELECT id FROM phys_location WHERE name = 'bench-snap-pl'");
    await db.query('INSERT INTO cdn (name, domain_name) VALUES (?, ?)', [SNAPSHOT_CDN, 'snap.example.net']);
    const cdn = await id('SELECT id FROM cdn WHERE name = ?', [SNAPSHOT_CDN]);
    await db.query(
      "INSERT INTO profile (name, description, type, cdn) VALUES ('bench-snap-edge', 'bench EDGE profile', 'ATS_PROFILE', ?)",
      [cdn],
    );
    const profile = await id("SELECT id FROM profile WHERE name = 'bench-snap-edge'");
    const edgeLoc = await id("SELECT id FROM type WHERE name = 'EDGE_LOC'");
    const groups = Array.from({ length: 50 }, (_, g) => [
      `bench-snap-cg${g}`,
      `bench-snap-cg${g}`,
      40 + g / 10,
      -100 + g / 10,
      edgeLoc,
    ]);
    await db.query('INSERT INTO cachegroup (name, short_name, latitude, longitude, type) VALUES ?', [groups]);
    const [groupRows] = await db.query<mysql.RowDataPacket[]>(
      "SELECT id FROM cachegroup WHERE name LIKE 'bench-snap-cg%' ORDER BY id",
    );
    const groupIds = groupRows.map((row) => Number(row.id));
    const edge = await id("SELECT id FROM type WHERE name = 'EDGE'");
    const online = await id("SELECT id FROM status WHERE name = 'ONLINE'");
    const servers = Array.from({ length: 1000 }, (_, i) => [
      `bench-snap-edge-${i}`,
      'example.net',
      physLocation,
      groupIds[i % groupIds.length],
      edge,
      online,
      cdn,
      80,
    ]);
    await db.query(
      'INSERT INTO server (host_name, domain_name, phys_location, cachegroup, type, status, cdn_id, tcp_port) VALUES ?',
      [servers],
    );
    await db.query(
      "INSERT INTO server_profile (server, profile, priority) SELECT id, ?, 0 FROM server WHERE host_name LIKE 'bench-snap-edge-%'",
      [profile],
    );
    await db.query(
      "INSERT INTO interface (server, name, monitor) SELECT id, 'eth0', 1 FROM server WHERE host_name LIKE 'bench-snap-edge-%'",
    );
    await db.query(
      "INSERT INTO ip_address (server, interface, address, service_address) SELECT i.server, i.id, '192.0.2.7/24', 1 " +
        "FROM interface i JOIN server s ON s.id = i.server WHERE s.host_name LIKE 'bench-snap-edge-%'",
    );
    const http = await id("SELECT id FROM type WHERE name = 'HTTP'");
    const tenant = await id("SELECT id FROM tenant WHERE name = 'root'");
    await insertDeliveryServices(db, 'bench-snap-ds', 300, { type: http, cdn, tenant });
    const hostRegexp = await id("SELECT id FROM type WHERE name = 'HOST_REGEXP'");
    await db.query(
      "INSERT INTO regex (pattern, type) SELECT CONCAT('.*\\\\.', xml_id, '\\\\..*'), ? FROM deliveryservice " +
        "WHERE xml_id LIKE 'bench-snap-ds-%'",
      [hostRegexp],
    );
    await db.query(
      'INSERT INTO deliveryservice_regex (deliveryservice, regex, set_number) SELECT d.id, r.id, 0 ' +
        "FROM deliveryservice d JOIN regex r ON r.pattern = CONCAT('.*\\\\.', d.xml_id, '\\\\..*') " +
        "WHERE d.xml_id LIKE 'bench-snap-ds-%'",
    );
    // Each server serves 3 delivery services.
    await db.query(
      'INSERT INTO deliveryservice_server (deliveryservice, server) SELECT d.id, s.id FROM server s ' +
        "JOIN deliveryservice d ON d.cdn_id = s.cdn_id WHERE s.host_name LIKE 'bench-snap-edge-%' " +
        'AND (s.id + d.id) % 100 = 0',
    );
  } finally {
    await db.end();
  }

  const path = `/api/4.0/cdns/${SNAPSHOT_CDN}/snapshot/new`;
  const get = async (): Promise<{ status: number; ms: number; body: string }> => {
    const started = performance.now();
    const res = await fetch(`${BASE}${path}`, { headers: { Cookie: cookie } });
    const body = await res.text();
    return { status: res.status, ms: performance.now() - started, body };
  };
  let last = { status: 0, ms: 0, body: '' };
  for (let i = 0; i < 3; i++) {
    last = await get(); // warm-up: JIT, the session
  }
  const statuses: number[] = [];
  const ms: number[] = [];
  const cpuBefore = cpuMicros(serverPid);
  for (let i = 0; i < SNAPSHOT_REQUESTS; i++) {
    last = await get();
    statuses.push(last.status);
    ms.push(last.ms);
  }
  const cpuMs = (cpuMicros(serverPid) - cpuBefore) / SNAPSHOT_REQUESTS / 1000;
  const document = (
    JSON.parse(last.body) as { response?: Record<string, Record<string, unknown> | undefined> }
  ).response;
  const result: SnapshotResult = {
    servers: Object.keys(document?.contentServers ?? {}).length,
    deliveryServices: Object.keys(document?.deliveryServices ?? {}).length,
    cacheGroups: Object.keys(document?.edgeLocations ?? {}).length,
    bytes: Buffer.byteLength(last.body),
    statuses,
    ms,
    cpuMs,
  };
  console.log(
    `GET ${path}: median ${Math.round(median(ms))} ms, max ${Math.round(Math.max(...ms))} ms, ` +
      `server CPU ${Math.round(cpuMs)} ms per request`,
  );
  return result;
}

function snapshotReport(result: SnapshotResult): string[] {
  const sorted = [...result.ms].sort((x, y) => x - y);
  const p90 = sorted[Math.ceil(sorted.length * 0.9) - 1];
  const statuses = [...new Set(result.statuses)].join(', ');
  return [
    "## A CDN's new snapshot",
    '',
    `\`GET /api/4.0/cdns/{name}/snapshot/new\` on a CDN of ${result.servers.toLocaleString('en-US')} EDGE servers (each`,
    `serving 3 delivery services), ${result.deliveryServices} delivery services and ${result.cacheGroups} cache groups`,
    '(rows inserted directly in SQL), 1 worker, after 3 warm-up requests: ' +
      `${result.ms.length} requests one after the other, timed from the client; the server's CPU time from /proc.`,
    'The document is built by a fixed set of queries, the same as for a small CDN',
    '(test/e2e/snapshots.e2e-spec.ts, "speed"). Target: within 1 s.',
    '',
    '| requests | status | median ms | p90 ms | max ms | server CPU ms per request | document |',
    '|---:|---|---:|---:|---:|---:|---:|',
    `| ${result.ms.length} | ${statuses} | ${Math.round(median(result.ms))} | ${Math.round(p90)} | ` +
      `${Math.round(sorted[sorted.length - 1])} | ${Math.round(result.cpuMs)} | ${(result.bytes / 1024).toFixed(0)} KiB |`,
    '',
  ];
}

const COST_ROUNDS = 6;

interface Cost {
  variant: string;
  rps: number[];
  p99: number[];
  /** Server CPU time (user + system) per request, in µs. */
  cpu: number[];
}

/** CPU time (user + system) a process has used so far, in µs (Linux /proc; 100 ticks per second). */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * Issue 6: what the request log line and the conditional-request check cost on GET /api/4.0/cdns at
 * 32 connections. This VM's throughput drifts by ±15 % within a minute, so the variants alternate
 * over COST_ROUNDS rounds (a server with request logs off and one with them on, in turns) and the
 * medians of the server's CPU time per request are compared.
 */
async function mechanismCosts(databaseUrl: string, requestLogOnly = false): Promise<Cost[]> {
  const path = '/api/4.0/cdns';
  const longAgo = new Date(Date.UTC(2000, 0, 1)).toUTCString();
  const variants: { variant: string; logLevel: string; headers: () => Record<string, string> }[] = [
    { variant: 'plain (request logs off)', logLevel: 'warn', headers: () => ({}) },
    {
      variant: 'If-Modified-Since before the last change (checked, then 200 with the list)',
      logLevel: 'warn',
      headers: () => ({ 'If-Modified-Since': longAgo }),
    },
    {
      variant: 'If-Modified-Since now (checked, 304 without the list)',
      logLevel: 'warn',
      headers: () => ({ 'If-Modified-Since': new Date(Date.now() + 60_000).toUTCString() }),
    },
    {
      variant: 'request logs on (`LOG_LEVEL=info`, one JSON line per request)',
      logLevel: 'info',
      headers: () => ({}),
    },
  ];
  if (requestLogOnly) {
    variants.splice(1, 2); // the conditional-request rows
  }
  const costs: Cost[] = variants.map(({ variant }) => ({ variant, rps: [], p99: [], cpu: [] }));
  for (let round = 0; round < COST_ROUNDS; round++) {
    // Which server comes first alternates too, so that a drift favours neither.
    for (const logLevel of round % 2 === 0 ? ['warn', 'info'] : ['info', 'warn']) {
      const server = startServer(databaseUrl, 1, logLevel);
      try {
        const cookie = await login();
        await run(path, 32, cookie, 5); // warm-up: JIT and heap settle before the first variant
        for (const [i, variant] of variants.entries()) {
          if (variant.logLevel !== logLevel) {
            continue;
          }
          const cpuBefore = cpuMicros(server.pid!);
          const result = await run(path, 32, cookie, 5, variant.headers());
          costs[i].rps.push(result.requests.average);
          costs[i].p99.push(result.latency.p99);
          costs[i].cpu.push((cpuMicros(server.pid!) - cpuBefore) / result.requests.total);
          console.log(
            `cost round ${round + 1}, ${variant.variant}: ${Math.round(result.requests.average)} req/s`,
          );
        }
      } finally {
        await stop(server);
      }
    }
  }
  return costs;
}

/**
 * The request log line alone, through the real middleware (fake request and response objects, a
 * file written synchronously as stdout is): CPU µs per line. Steadier than any HTTP comparison here.
 */
function logLineMicros(lines = 100_000): number {
  const file = join(tmpdir(), `bench-request-log-${process.pid}.jsonl`);
  const middleware = requestLog(
    createRootLogger({
      level: 'info',
      format: 'json',
      destination: pino.destination({ dest: file, sync: true }),
    }),
  );
  const user = { id: 1, username: 'admin', tenantId: 1 };
  const started = process.cpuUsage();
  for (let i = 0; i < lines; i++) {
    const req = { path: '/api/4.0/cdns', method: 'GET', originalUrl: '/api/4.0/cdns', headers: {}, user };
    const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: true });
    middleware(req as unknown as Request, res as unknown as Response, () => undefined);
    res.emit('finish');
  }
  const used = process.cpuUsage(started);
  rmSync(file, { force: true });
  return (used.user + used.system) / lines;
}

function costReport(costs: Cost[]): string[] {
  if (costs.length === 0) {
    return [];
  }
  const plain = median(costs[0].cpu);
  const logLine = logLineMicros();
  return [
    '## Cost of the request log and of conditional requests (issue 6)',
    '',
    `GET /api/4.0/cdns (21 CDNs), 1 worker, 32 connections, ${COST_ROUNDS} alternating rounds of 5 s; medians. The cost is`,
    "the server's CPU time per request (user + system, from /proc) against the plain request: unlike",
    "requests/s it does not move with the load generator's and the database's share of the two cores.",
    'Requests without the headers do not run the check at all.',
    '',
    '| variant | requests/s | p99 ms | server CPU µs per request | cost |',
    '|---|---:|---:|---:|---:|',
    ...costs.map(({ variant, rps, p99, cpu }) => {
      const cost = ((median(cpu) - plain) / plain) * 100;
      return (
        `| ${variant} | ${Math.round(median(rps))} | ${median(p99)} | ${Math.round(median(cpu))} | ` +
        `${cost > 0 ? '+' : ''}${cost.toFixed(1)} % |`
      );
    }),
    '',
    `Measured alone (the request-log middleware over 100,000 requests in this process), one request log line`,
    `costs ${logLine.toFixed(1)} µs of CPU, ${((logLine / plain) * 100).toFixed(1)} % of the plain request; the difference of the`,
    "`request logs on` row beyond that is this machine's noise. The If-Modified-Since check reads the table's last",
    'change (one indexed query: the newest `last_updated` and the last deletion); for 5 s after, a later known change',
    'answers "changed" without a query, while a possible 304 is always checked against the database. A 304 skips',
    'the list.',
    '',
  ];
}

/**
 * `count` ACTIVE delivery services named `<prefix>-<i>`, inserted in one statement (the scenarios
 * measure reads and bulk operations, not these writes).
 */
async function insertDeliveryServices(
  db: mysql.Connection,
  prefix: string,
  count: number,
  refs: { type: number; cdn: number; tenant: number },
): Promise<void> {
  const services = Array.from({ length: count }, (_, i) => [
    `${prefix}-${i}`,
    'ACTIVE',
    0,
    refs.type,
    refs.cdn,
    `${prefix}-${i}`,
    refs.tenant,
    'cdn',
    'NEVER',
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ]);
  await db.query(
    'INSERT INTO deliveryservice (xml_id, active, dscp, type, cdn_id, display_name, tenant_id, routing_name, ' +
      'deep_caching_type, regional_geo_blocking, logs_enabled, ipv6_routing_enabled, multi_site_origin, ' +
      'anonymous_blocking_enabled, ecs_enabled, regional, geo_limit, max_request_header_bytes) VALUES ?',
    [services],
  );
}

function stop(server: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    server.once('exit', () => resolve());
    server.kill('SIGTERM');
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
