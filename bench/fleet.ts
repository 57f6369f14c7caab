/**
 * The fleet scenario: what a CDN's caches send its Traffic Ops. N simulated caches each run t3c's
 * request sequence (docs/t3c.md) for their own host name (the data set's
 * servers in turn; past 1,000 caches host names repeat) once per period, their starts spread evenly
 * over it: a sign-in on 5.0 with a new connection (t3c is a new process each time), then its GETs. The
 * configuration calls carry If-Modified-Since as t3c sends it from what it kept of its previous run
 * (that answer's Last-Modified, or else its Date, plus one second; none on a cache's first run); the
 * update-status calls carry none. Call 4 (the CDN's SSL keys) is left out: the original here has no
 * Traffic Vault and answers it 500, so the two servers would not do the same work. Every call asks
 * for gzip, as Go's client does. Meanwhile a writer changes one delivery service every 10 s, so that
 * some runs get fresh lists. Measured per fleet size, from the server's side: CPU per cache run (the
 * first runs, then the later ones), the runs' durations, the requests' latencies and the largest worker's
 * resident memory after each round.
 *
 * It runs against any Traffic Ops compatible server holding the comparison data set (bench/dataset.ts),
 * so the same code measures this service (`npm run bench -- --only=fleet`) and the original:
 *
 *   node dist/bench/fleet.js dataset <base URL> <user> <password>
 *   node dist/bench/fleet.js run <base URL> <user> <password> <server pid> [sizes] [period s] [rounds]
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { BenchClient } from './client';
import { treeCpuMicros, workerRssMiB } from './comparison';
import { COMPARISON_DATASET, createDataset } from './dataset';

/** A run's p99 above this is a fleet too large for the server (the bound for one instance). */
export const P99_BOUND_MS = 2000;
const WRITE_INTERVAL_MS = 10_000;

export interface FleetOptions {
  sizes: number[];
  periodSeconds: number;
  /** Rounds per size: the first runs of every cache, then `rounds - 1` rounds of later runs. */
  rounds: number;
}

export interface FleetResult {
  caches: number;
  runs: number;
  requests: number;
  notModified: number;
  /** Requests of the runs that failed, and writes of the writer that did. */
  failures: number;
  cpuMicrosFirstRun: number;
  cpuMicrosLaterRun: number;
  runP50Ms: number;
  runP99Ms: number;
  /** The highest of the runs' own request p99s. */
  worstRunRequestP99Ms: number;
  rssMiBPerRound: number[];
}

/**
 * The calls of one t3c run for `host` (docs/t3c.md, in its order; the data set signs no URLs), and
 * whether t3c makes each one conditional.
 */
function t3cCalls(host: string, cdnId: number): { path: string; conditional: boolean }[] {
  const v = '/api/5.0';
  const config = [
    `${v}/profiles/name/GLOBAL/parameters`,
    `${v}/servers`,
    `${v}/deliveryservices?cdn=${cdnId}`,
    `${v}/deliveryserviceserver?limit=999999&cdn=bench&orderby=`,
    `${v}/profiles/name/BENCH_EDGE/parameters`,
    `${v}/cdns`,
    `${v}/jobs?maxRevalDurationDays=&cdn=bench`,
    `${v}/cachegroups`,
    `${v}/server_server_capabilities`,
    `${v}/deliveryservices_regexes`,
    `${v}/parameters?configFile=cachekey.config`,
    `${v}/parameters?configFile=remap.config`,
    `${v}/parameters?configFile=parent.config`,
    `${v}/topologies`,
  ];
  const updateStatus = [
    `${v}/servers?hostName=${host}`,
    `${v}/servers/${host}/update_status`,
    `${v}/statuses`,
  ];
  return [
    ...config.map((path) => ({ path, conditional: true })),
    ...updateStatus.map((path) => ({ path, conditional: false })),
  ];
}

/**
 * What t3c's Go HTTP client sends on every call: Go's transport asks for gzip by itself (t3c does not
 * turn it off) and unzips the answer, so both servers compress what they would compress for a cache.
 */
const T3C_HEADERS = { 'Accept-Encoding': 'gzip' };

/** What a cache kept of its previous run: per path, the If-Modified-Since its next request sends. */
type Kept = Map<string, string>;

/** t3c's If-Modified-Since for an answer: its Last-Modified, or else its Date, plus one second. */
function nextSince(headers: Record<string, string | string[] | undefined>): string | undefined {
  const stamp = headers['last-modified'] ?? headers.date;
  const ms = typeof stamp === 'string' ? Date.parse(stamp) : NaN;
  return Number.isNaN(ms) ? undefined : new Date(ms + 1000).toUTCString();
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) {
    return NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface RunOutcome {
  durationMs: number;
  latenciesMs: number[];
  notModified: number;
  failures: number;
}

/** One t3c run: sign in on a new connection, then every call, with If-Modified-Since when given. */
async function cacheRun(
  base: string,
  user: string,
  password: string,
  host: string,
  cdnId: number,
  kept: Kept,
): Promise<RunOutcome> {
  const client = new BenchClient(base);
  const started = performance.now();
  const outcome: RunOutcome = { durationMs: 0, latenciesMs: [], notModified: 0, failures: 0 };
  try {
    await client.login(user, password, '5.0');
    for (const { path, conditional } of t3cCalls(host, cdnId)) {
      const since = conditional ? kept.get(path) : undefined;
      const before = performance.now();
      const res = await client.request('GET', path, undefined, {
        ...T3C_HEADERS,
        ...(since ? { 'If-Modified-Since': since } : {}),
      });
      outcome.latenciesMs.push(performance.now() - before);
      if (res.status === 304) {
        outcome.notModified++;
      } else if (res.status !== 200) {
        outcome.failures++;
        continue;
      }
      const next = nextSince(res.headers);
      if (conditional && next !== undefined) {
        kept.set(path, next);
      }
    }
  } catch {
    outcome.failures++;
  } finally {
    client.close();
  }
  outcome.durationMs = performance.now() - started;
  return outcome;
}

/**
 * Changes one delivery service's long description every 10 s until `stop` resolves; answers the writes
 * that failed (an overloaded server may refuse one: it counts as a failure of the size, as a run's).
 */
async function writer(client: BenchClient, stopped: () => boolean): Promise<number> {
  const [ds] = await client.ok<Record<string, unknown>[]>(
    'GET',
    '/api/4.0/deliveryservices?xmlId=bench-ds-0',
  );
  let writes = 0;
  let failures = 0;
  while (!stopped()) {
    await sleep(WRITE_INTERVAL_MS);
    if (stopped()) {
      break;
    }
    const res = await client
      .request('PUT', `/api/4.0/deliveryservices/${String(ds.id)}`, {
        ...ds,
        longDesc: `changed by the fleet's writer (${++writes})`,
      })
      .catch(() => undefined);
    if (res?.status !== 200) {
      failures++;
      console.log(`  the fleet's writer: PUT deliveryservices answered ${res ? res.status : 'nothing'}`);
    }
  }
  return failures;
}

/** One fleet size: `caches` caches, `rounds` rounds of `periodSeconds` each. */
async function measureSize(
  base: string,
  pid: number,
  user: string,
  password: string,
  caches: number,
  options: FleetOptions,
): Promise<FleetResult> {
  const admin = new BenchClient(base);
  await admin.login(user, password);
  const [cdn] = await admin.ok<{ id: number }[]>('GET', '/api/4.0/cdns?name=bench');
  const periodMs = options.periodSeconds * 1000;
  const kept: Kept[] = Array.from({ length: caches }, () => new Map<string, string>());
  const outcomes: RunOutcome[][] = [];
  const rss: number[] = [];
  let stop = false;
  let writeFailures = 0;
  const writing = writer(admin, () => stop);
  const cpu: number[] = [];
  try {
    for (let round = 0; round < options.rounds; round++) {
      const roundStart = performance.now();
      if (round <= 1) {
        cpu.push(treeCpuMicros(pid)); // the first runs alone, then all later runs together
      }
      outcomes.push(
        await Promise.all(
          Array.from({ length: caches }, async (_, k) => {
            await sleep(roundStart + (k * periodMs) / caches - performance.now());
            const host = `edge-${k % COMPARISON_DATASET.servers}`;
            return cacheRun(base, user, password, host, cdn.id, kept[k]);
          }),
        ),
      );
      rss.push(workerRssMiB(pid));
      // The next round starts a period after this one did (at once when the runs took longer).
      await sleep(roundStart + periodMs - performance.now());
    }
    cpu.push(treeCpuMicros(pid));
  } finally {
    stop = true;
    writeFailures = await writing;
    admin.close();
  }
  const all = outcomes.flat();
  const later = outcomes.slice(1).flat();
  const durations = all.map((run) => run.durationMs);
  return {
    caches,
    runs: all.length,
    requests: all.reduce((sum, run) => sum + run.latenciesMs.length, 0),
    notModified: all.reduce((sum, run) => sum + run.notModified, 0),
    failures: writeFailures + all.reduce((sum, run) => sum + run.failures, 0),
    cpuMicrosFirstRun: Math.round((cpu[1] - cpu[0]) / caches),
    cpuMicrosLaterRun: later.length > 0 ? Math.round((cpu[2] - cpu[1]) / later.length) : NaN,
    runP50Ms: Math.round(percentile(durations, 50)),
    runP99Ms: Math.round(percentile(durations, 99)),
    worstRunRequestP99Ms: Math.round(Math.max(...all.map((run) => percentile(run.latenciesMs, 99)))),
    rssMiBPerRound: rss,
  };
}

/** Whether a size kept every run's requests within the bound, with no failure. */
export const withinBound = (result: FleetResult): boolean =>
  result.failures === 0 && result.worstRunRequestP99Ms < P99_BOUND_MS;

/** Each size in order, until one exceeds the bound (it is reported, the larger ones are not run). */
export async function measureFleet(
  base: string,
  pid: number,
  user: string,
  password: string,
  options: FleetOptions,
): Promise<FleetResult[]> {
  const results: FleetResult[] = [];
  for (const caches of options.sizes) {
    const result = await measureSize(base, pid, user, password, caches, options);
    console.log(`  fleet of ${caches}: ${JSON.stringify(result)}`);
    results.push(result);
    if (!withinBound(result)) {
      break;
    }
  }
  return results;
}

/** The largest size within the bound (0 when none was). */
export const largestFleet = (results: FleetResult[]): number =>
  Math.max(0, ...results.filter(withinBound).map((result) => result.caches));

export function fleetReport(name: string, results: FleetResult[], options: FleetOptions): string[] {
  return [
    `${name}: ${options.rounds} rounds of ${options.periodSeconds} s per fleet size; largest fleet with every run's request p99 under ${P99_BOUND_MS} ms and no failure: **${largestFleet(results)}** (of the sizes run).`,
    '',
    '| caches | runs | requests | 304s | failures | CPU µs/first run | CPU µs/later run | run p50 ms | run p99 ms | worst run request p99 ms | RSS MiB per round |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.caches} | ${r.runs} | ${r.requests} | ${r.notModified} | ${r.failures} | ${r.cpuMicrosFirstRun} | ${r.cpuMicrosLaterRun} | ${r.runP50Ms} | ${r.runP99Ms} | ${r.worstRunRequestP99Ms} | ${r.rssMiBPerRound.join(', ')} |`,
    ),
  ];
}

/** The options from FLEET_SIZES (comma-separated), FLEET_PERIOD_SECONDS and FLEET_ROUNDS. */
export function fleetOptions(env: NodeJS.ProcessEnv, args: string[] = []): FleetOptions {
  const sizes = (args[0] ?? env.FLEET_SIZES ?? '400,800,1200,1600').split(',').map(Number);
  const periodSeconds = Number(args[1] ?? env.FLEET_PERIOD_SECONDS ?? 60);
  const rounds = Number(args[2] ?? env.FLEET_ROUNDS ?? 3);
  if (sizes.some((size) => !Number.isInteger(size) || size < 1) || !(periodSeconds > 0) || !(rounds >= 2)) {
    throw new Error('fleet: sizes of 1 cache or more, a period > 0 and 2 rounds or more');
  }
  return { sizes, periodSeconds, rounds };
}

async function cli(argv: string[]): Promise<void> {
  const [command, base, user, password, pid, ...rest] = argv;
  if (command === 'dataset' && password !== undefined) {
    const client = new BenchClient(base);
    try {
      await client.login(user, password);
      await createDataset(client, COMPARISON_DATASET, () => 0);
    } finally {
      client.close();
    }
    return;
  }
  if (command === 'run' && pid !== undefined) {
    const options = fleetOptions(process.env, rest);
    const results = await measureFleet(base, Number(pid), user, password, options);
    console.log(fleetReport(base, results, options).join('\n'));
    return;
  }
  throw new Error(
    'usage: fleet.js dataset <base> <user> <password> | fleet.js run <base> <user> <password> <pid> [sizes] [period] [rounds]',
  );
}

if (require.main === module) {
  cli(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

/**
 * The original Traffic Ops (Go, PostgreSQL) under the same scenario: reference figures measured on this
 * machine by `fleet.js run` against it, with the data set created through its API by `fleet.js dataset`
 * (the original is not a dependency of this project; docs/performance.md tells how it is run).
 */
export const ORIGINAL_FLEET: { measured: string; options: FleetOptions; results: FleetResult[] } = {
  measured:
    'on this machine on 2026-12-05, over HTTPS, after this service on the same data (docs/benchmarks.md)',
  options: { sizes: [400, 600, 800], periodSeconds: 60, rounds: 3 },
  results: [
    {
      caches: 400,
      runs: 1200,
      requests: 20400,
      notModified: 8000,
      failures: 0,
      cpuMicrosFirstRun: 79_575,
      cpuMicrosLaterRun: 60_188,
      runP50Ms: 87,
      runP99Ms: 173,
      worstRunRequestP99Ms: 88,
      rssMiBPerRound: [119, 106, 103],
    },
    {
      caches: 600,
      runs: 1800,
      requests: 30600,
      notModified: 12000,
      failures: 0,
      cpuMicrosFirstRun: 72_433,
      cpuMicrosLaterRun: 62_783,
      runP50Ms: 94,
      runP99Ms: 194,
      worstRunRequestP99Ms: 106,
      rssMiBPerRound: [118, 109, 108],
    },
    {
      caches: 800,
      runs: 2400,
      requests: 40800,
      notModified: 16000,
      failures: 0,
      cpuMicrosFirstRun: 71_513,
      cpuMicrosLaterRun: 64_719,
      runP50Ms: 139,
      runP99Ms: 10_082,
      worstRunRequestP99Ms: 2087,
      rssMiBPerRound: [95, 117, 116],
    },
  ],
};
