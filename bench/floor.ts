/**
 * The floor of the stack under the ping row (docs/benchmarks.md): the CPU per request of the smallest
 * server each layer of this service's stack can make (bench/floor-server.ts: Node's own http server,
 * Express with one route, Nest on Express with one controller), measured as the comparison measures
 * this service: wrk at 32 connections, server CPU time from /proc. What this service spends above the
 * Nest row is its own pipeline; what the Nest row spends is the stack's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ORIGINAL, REPEATS, runSeconds, treeCpuMicros, wrk } from './comparison';
import { WRITERS } from './dataset';

export const FLOOR_KINDS = [
  'node',
  'express',
  'nest',
  'nest-mysql2',
  'nest-typeorm',
  'nest-typeorm-write',
] as const;
export type FloorKind = (typeof FLOOR_KINDS)[number];

export interface FloorResult {
  kind: FloorKind;
  rps: number;
  cpuMicros: number;
}

const LABELS: Record<FloorKind, string> = {
  node: "Node's `http` server alone",
  express: 'Express 5, one route',
  nest: 'Nest 11 on Express, one controller (no guards, interceptors or middleware)',
  'nest-mysql2':
    'the same Nest server answering `GET /api/4.0/cdns` (3 rows) from MySQL through mysql2 alone',
  'nest-typeorm': 'the same, through TypeORM (`DataSource.query`, raw SQL) on mysql2',
  'nest-typeorm-write':
    "the same Nest server creating an ASN (`POST /api/4.0/asns`): class-validator on the body, then the service's " +
    `statements in one transaction through TypeORM; ${WRITERS} connections, as the write rates`,
};

/** The database the floor servers read and write: its URL, and the cache group new ASNs join. */
export interface FloorDatabase {
  url: string;
  cachegroupId: number;
}

/** What each kind is asked under load: its path, and for the write a wrk script making each body. */
function requestOf(kind: FloorKind, database: FloorDatabase, dir: string): { path: string; script?: string } {
  if (kind === 'nest-mysql2' || kind === 'nest-typeorm') {
    return { path: 'cdns' };
  }
  if (kind !== 'nest-typeorm-write') {
    return { path: 'ping' };
  }
  // Each run numbers its ASNs from its start second (runs start seconds apart, a run writes far fewer
  // than 10,000 a second), so that no two requests of the bench collide on the unique number.
  const script = join(dir, 'asns.lua');
  writeFileSync(
    script,
    [
      'wrk.method = "POST"',
      'wrk.headers["Content-Type"] = "application/json"',
      'local n = (os.time() % 100000) * 10000',
      'request = function()',
      '  n = n + 1',
      `  return wrk.format(nil, nil, nil, '{"asn":' .. n .. ',"cachegroupId":${database.cachegroupId}}')`,
      'end',
      '',
    ].join('\n'),
  );
  return { path: 'asns', script };
}

async function waitForPing(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(url)).status === 200) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Each floor server in turn: a warm-up, then REPEATS runs of wrk at 32 connections (the median kept).
 * `databaseUrl`: a migrated bench database whose `cdn` table holds the comparison's CDNs.
 */
export async function measureFloor(
  root: string,
  port: number,
  seconds: number,
  database: FloorDatabase,
): Promise<FloorResult[]> {
  const results: FloorResult[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'cdn-floor-'));
  for (const kind of FLOOR_KINDS) {
    const child = spawn(
      process.execPath,
      [join(root, 'dist', 'bench', 'floor-server.js'), kind, String(port)],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, DATABASE_URL: database.url },
      },
    );
    try {
      const { path, script } = requestOf(kind, database, dir);
      const url = `http://127.0.0.1:${port}/api/4.0/${path}`;
      const connections = script === undefined ? 32 : WRITERS;
      await waitForPing(`http://127.0.0.1:${port}/api/4.0/${script === undefined ? path : 'ping'}`);
      wrk(url, connections, Math.min(3, seconds), '', script);
      // As the comparison's rows: the run of median CPU per request of REPEATS.
      const runs: FloorResult[] = [];
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        const before = treeCpuMicros(child.pid!);
        const result = wrk(url, connections, runSeconds(seconds), '', script);
        if (result.non2xx > 0 || result.errors > 0) {
          throw new Error(`floor ${kind}: ${result.non2xx} answers not 2xx, ${result.errors} socket errors`);
        }
        const cpu = treeCpuMicros(child.pid!) - before;
        runs.push({ kind, rps: result.rps, cpuMicros: Math.round(cpu / result.requests) });
      }
      const median = [...runs].sort((a, b) => a.cpuMicros - b.cpuMicros)[Math.floor(REPEATS / 2)];
      results.push(median);
      console.log(
        `floor ${kind}: ${Math.round(median.rps)} req/s, ${median.cpuMicros} µs CPU/request ` +
          `(runs: ${runs.map((r) => r.cpuMicros).join(', ')})`,
      );
    } finally {
      await stop(child);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  return results;
}

/** The section of docs/benchmarks.md for the floor. */
export function floorReport(results: FloorResult[], seconds: number): string[] {
  return [
    '## The floor of the stack (ping, cdns, a write)',
    '',
    `The smallest server of each layer this service is built on (bench/floor-server.ts), answering \`GET /api/4.0/ping\` ` +
      `with the same body, HTTP, one process, wrk at 32 connections after a warm-up, the median of ${REPEATS} runs of ` +
      `${runSeconds(seconds)} s. "CPU µs/req" is ` +
      `measured as above. The ping row's targets (150 µs, and the original's ${ORIGINAL.gets.ping.cpuMicros} µs ` +
      `${ORIGINAL.measured}) are compared with these: what the service spends above the ` +
      'Nest row is its own per-request pipeline (sessions, authorization, envelope, headers and digest, request log, ' +
      'cross-site check, conditional requests, routing among its routes). The two database rows answer the cdns row ' +
      `(the original's ${ORIGINAL.gets.cdns.cpuMicros} µs) with the service's query and shape and nothing else: ` +
      'their cost above the Nest row is one ' +
      'MySQL round trip through the driver the stack mandates. The last row creates ASNs as the service does (the ' +
      "body validated by class-validator, then BEGIN, INSERT … RETURNING, the change log's INSERT and COMMIT through " +
      `TypeORM), at ${WRITERS} connections as the write rates are measured: its requests/s is that of a server doing ` +
      'nothing but the write, on this machine, with one worker (the original creates ' +
      `${ORIGINAL.writesPerSecond.asns.toLocaleString('en-US')} a second ${ORIGINAL.measured}).`,
    '',
    '| server | CPU µs/req | req/s |',
    '|---|---:|---:|',
    ...results.map(
      (r) =>
        `| ${LABELS[r.kind]} | ${r.cpuMicros.toLocaleString('en-US')} | ${Math.round(r.rps).toLocaleString('en-US')} |`,
    ),
    '',
  ];
}
