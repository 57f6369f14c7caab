/**
 * The comparison with the original Traffic Ops, request for request (docs/benchmarks.md, first
 * section): the data set created through the API (bench/dataset.ts, its creation measured as the
 * write rates), then each GET row under wrk. Every configuration starts on a fresh database: HTTP and
 * HTTPS (the server's own TLS, TLS_CERT_FILE/TLS_KEY_FILE, a self-signed certificate made here), each
 * with one worker and with the default worker count (WEB_CONCURRENCY unset).
 *
 * The cost that is compared is the server's CPU time per request (user + system of the server's whole
 * process tree, from /proc): on this 2-core machine wrk and the database take their share of the cores,
 * which moves requests/s far more than it moves the server's own CPU per request.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchClient } from './client';
import {
  COMPARISON_DATASET,
  createDataset,
  WARM_UP,
  WRITE_BATCHES,
  WRITERS,
  type WriteRate,
} from './dataset';

/**
 * The original Traffic Ops (Go, PostgreSQL), measured on this machine on 2026-11-28 over HTTPS with the
 * same data set (created through its API by this bench's data-set code, warm-up included), wrk and
 * connection counts, by bench/side-by-side.sh: per row the median of three rounds (each the median of
 * three runs), alternating with this service; the write rates are the median of three creations of
 * the data set, each on a fresh database. These are reference figures from that measurement, not
 * produced by this bench (the original is not a dependency of this project); docs/performance.md
 * tells how they were taken and how far they move.
 */
export const ORIGINAL = {
  measured: 'on this machine on 2026-11-28, over HTTPS',
  gets: {
    ping: { cpuMicros: 45, rps: 27_446 },
    cdns: { cpuMicros: 142, rps: 7_048 },
    types: { cpuMicros: 268, rps: 4_442 },
    asns: { cpuMicros: 423, rps: 2_498 },
    deliveryservices: { cpuMicros: 6_450, rps: 163 },
    servers: { cpuMicros: 19_847, rps: 32 },
  },
  writesPerSecond: { asns: 1_772, deliveryservices: 440, servers: 212 },
} as const;

export type GetName = keyof typeof ORIGINAL.gets;

/** The GET rows: path (API 4.0) and wrk connections, as the original was measured. */
export const GET_ROWS: { name: GetName; path: string; connections: number }[] = [
  { name: 'ping', path: '/api/4.0/ping', connections: 32 },
  { name: 'cdns', path: '/api/4.0/cdns', connections: 32 },
  { name: 'types', path: '/api/4.0/types', connections: 32 },
  { name: 'asns', path: '/api/4.0/asns?limit=100', connections: 32 },
  { name: 'deliveryservices', path: '/api/4.0/deliveryservices', connections: 32 },
  { name: 'servers', path: '/api/4.0/servers', connections: 4 },
];

export interface GetResult {
  name: GetName;
  path: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  cpuMicros: number;
  /** The largest worker's resident memory after the row, in MiB. */
  rssMiB: number;
}

export interface ConfigResult {
  protocol: 'http' | 'https';
  workers: string;
  writes: WriteRate[];
  writeRssMiB: number;
  gets: GetResult[];
}

/** The process and its descendants (a cluster's primary and its workers). */
function processTree(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    let children: string[] = [];
    try {
      for (const task of readdirSync(`/proc/${tree[i]}/task`)) {
        children = children.concat(
          readFileSync(`/proc/${tree[i]}/task/${task}/children`, 'utf8').split(' ').filter(Boolean),
        );
      }
    } catch {
      // the process has gone
    }
    tree.push(...children.map(Number));
  }
  return tree;
}

/** User + system CPU time of the process tree so far, in µs (100 clock ticks per second). */
export function treeCpuMicros(pid: number): number {
  let total = 0;
  for (const member of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${member}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * 10_000;
    } catch {
      // the process has gone
    }
  }
  return total;
}

/** The resident memory of the largest process of the tree that serves requests, in MiB. */
export function workerRssMiB(pid: number): number {
  const tree = processTree(pid);
  const workers = tree.length > 1 ? tree.slice(1) : tree;
  let largest = 0;
  for (const member of workers) {
    try {
      const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${member}/status`, 'utf8'))?.[1];
      largest = Math.max(largest, Number(kib ?? 0) / 1024);
    } catch {
      // the process has gone
    }
  }
  return Math.round(largest);
}

/** A self-signed certificate for 127.0.0.1 in a temporary folder (removed by `dispose`). */
export function selfSignedCertificate(): { cert: string; key: string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-tls-'));
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

function wrkMs(output: string, percentile: string): number {
  const match = new RegExp(`^\\s*${percentile}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(output);
  if (!match) {
    return NaN;
  }
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

/**
 * wrk (one thread) against `url` with the session cookie; its counts and latency percentiles. `script`:
 * a wrk Lua script making each request (the floor's writes).
 */
export function wrk(
  url: string,
  connections: number,
  seconds: number,
  cookie: string,
  script?: string,
): { rps: number; requests: number; p50: number; p99: number; non2xx: number; errors: number } {
  const run = spawnSync(
    'wrk',
    [
      '-t1',
      `-c${connections}`,
      `-d${seconds}s`,
      '--timeout',
      '30s',
      '--latency',
      '-H',
      `Cookie: ${cookie}`,
      ...(script === undefined ? [] : ['-s', script]),
      url,
    ],
    { encoding: 'utf8' },
  );
  if (run.error) {
    throw run.error;
  }
  const output = run.stdout;
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
    .exec(output)
    ?.slice(1)
    .reduce((sum, n) => sum + Number(n), 0);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN),
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? NaN),
    p50: wrkMs(output, '50'),
    p99: wrkMs(output, '99'),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
    errors: errors ?? 0,
  };
}

export const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined;

/**
 * One configuration on a server already started on a fresh database (`pid`, listening at `base`):
 * the data set's creation (the write rates), then every GET row after a short warm-up.
 */
export async function measureConfiguration(
  base: string,
  pid: number,
  password: string,
  seconds: number,
): Promise<{ writes: WriteRate[]; writeRssMiB: number; gets: GetResult[] }> {
  const client = new BenchClient(base);
  try {
    await client.login('admin', password);
    const writes = await createDataset(client, COMPARISON_DATASET, () => treeCpuMicros(pid));
    const writeRssMiB = workerRssMiB(pid);
    const gets: GetResult[] = [];
    for (const row of GET_ROWS) {
      wrk(`${base}${row.path}`, row.connections, Math.min(3, seconds), client.sessionCookie); // warm-up
      // Several shorter runs, the one of median CPU per request kept: one run can land on a moment when
      // the machine's other work (the database, wrk, another process) slows the server's core.
      const runs: Omit<GetResult, 'rssMiB'>[] = [];
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        const cpuBefore = treeCpuMicros(pid);
        const result = wrk(`${base}${row.path}`, row.connections, runSeconds(seconds), client.sessionCookie);
        const cpu = treeCpuMicros(pid) - cpuBefore;
        runs.push({
          ...row,
          ...result,
          cpuMicros: result.requests > 0 ? Math.round(cpu / result.requests) : NaN,
        });
      }
      const median = [...runs].sort((a, b) => a.cpuMicros - b.cpuMicros)[Math.floor(REPEATS / 2)];
      gets.push({ ...median, rssMiB: workerRssMiB(pid) });
      console.log(
        `  GET ${row.path} c=${row.connections}: ${Math.round(median.rps)} req/s, p99 ${median.p99} ms, ` +
          `${median.cpuMicros} µs CPU/request (runs: ${runs.map((r) => r.cpuMicros).join(', ')})`,
      );
    }
    return { writes, writeRssMiB, gets };
  } finally {
    client.close();
  }
}

/** Runs per GET row; the median (by CPU per request) is reported. */
export const REPEATS = 3;

/** Each run's length: a third of the row's seconds, rounded up to whole seconds (wrk's unit). */
export const runSeconds = (seconds: number): number => Math.max(1, Math.ceil(seconds / REPEATS));

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The section of docs/benchmarks.md for the comparison. */
export function comparisonReport(configs: ConfigResult[], seconds: number): string[] {
  const lines = [
    '## Against the original Traffic Ops, request for request',
    '',
    `The data set, created through the API (4.0) by ${WRITERS} concurrent clients: in a CDN \`bench\` ` +
      `${fmt(COMPARISON_DATASET.asns)} ASNs, ${fmt(COMPARISON_DATASET.deliveryServices)} HTTP delivery services and ` +
      `${fmt(COMPARISON_DATASET.servers)} EDGE servers in one cache group (one interface each, with an IPv4 and an IPv6 ` +
      'service address), and one extra CDN. Each configuration starts on a fresh database. GET rows: wrk, one ' +
      `thread, after a warm-up, signed in as admin. "CPU µs/req" is the server's CPU time (user + ` +
      'system of its whole process tree, from /proc) divided by the requests answered, in the median of ' +
      `${REPEATS} runs of ${runSeconds(seconds)} s (the other figures of the row are that run's); "RSS" is the largest ` +
      'worker\'s resident memory after the row. "original" is the original Traffic Ops (Go, PostgreSQL) measured ' +
      `${ORIGINAL.measured} with the same data set and load (reference figures, not produced by this run; ` +
      'docs/performance.md tells how they were taken).',
    '',
    '| protocol | workers | GET (API 4.0) | connections | CPU µs/req | original µs/req | req/s | original req/s | p50 ms | p99 ms | non-2xx | errors | RSS MiB |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const config of configs) {
    for (const get of config.gets) {
      const original = ORIGINAL.gets[get.name];
      lines.push(
        `| ${config.protocol} | ${config.workers} | ${get.path.replace('/api/4.0/', '')} | ${get.connections} | ` +
          `${fmt(get.cpuMicros)} | ${fmt(original.cpuMicros)} | ${fmt(get.rps)} | ${fmt(original.rps)} | ` +
          `${get.p50} | ${get.p99} | ${get.non2xx} | ${get.errors} | ${get.rssMiB} |`,
      );
    }
  }
  lines.push(
    '',
    `Writes: ${WRITERS} concurrent clients creating the data set (one record per request), after a warm-up of the ` +
      `same routes (${WARM_UP.asns} ASNs, ${WARM_UP.deliveryServices} delivery services and ${WARM_UP.servers} ` +
      'servers created, then deleted): the rates of a running server, not of one still compiling its code. Each ' +
      `scenario runs ${WRITE_BATCHES} batches of its size (the first ${WRITE_BATCHES - 1} created then deleted, the ` +
      'last the data set\'s own); the row is the median batch, and "batches" gives each batch\'s rate in order.',
    '',
    '| protocol | workers | write | records | per second | original per second | batches per second | CPU µs/record | RSS MiB after |',
    '|---|---|---|---:|---:|---:|---|---:|---:|',
  );
  const originalWrites: Record<string, number> = {
    'POST /api/4.0/asns': ORIGINAL.writesPerSecond.asns,
    'POST /api/4.0/deliveryservices': ORIGINAL.writesPerSecond.deliveryservices,
    'POST /api/4.0/servers': ORIGINAL.writesPerSecond.servers,
  };
  for (const config of configs) {
    for (const write of config.writes) {
      lines.push(
        `| ${config.protocol} | ${config.workers} | ${write.scenario} | ${fmt(write.count)} | ` +
          `${fmt(write.count / write.seconds)} | ${fmt(originalWrites[write.scenario] ?? NaN)} | ` +
          `${write.batchRates.map(fmt).join(', ')} | ${fmt(write.cpuMicros / write.count)} | ${config.writeRssMiB} |`,
      );
    }
  }
  lines.push('');
  return lines;
}
