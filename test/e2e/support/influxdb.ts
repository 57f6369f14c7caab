import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * A throwaway InfluxDB 1.x for the e2e run (GET current_stats, docs/decisions.md#d16): started by the global
 * setup when `influxd` is on PATH, on free loopback ports, with its data in a temporary directory,
 * and killed by the global teardown. The tests learn of it from E2E_INFLUXDB=running and
 * INFLUXDB_URL. `E2E_INFLUXDB=off` skips it.
 */
export interface ThrowawayInfluxDb {
  url: string;
  pid: number;
  dir: string;
}

export const INFLUXDB_RUNNING = 'running';

/** Whether the run's InfluxDB is up (read by the suites). */
export function influxDbRunning(): boolean {
  return process.env.E2E_INFLUXDB === INFLUXDB_RUNNING && process.env.INFLUXDB_URL !== undefined;
}

function onPath(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Ports free right now on 127.0.0.1, all different (held open together, then released). */
async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
      servers.push(server);
    }
    return servers.map((s) => (s.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startInfluxDb(): Promise<ThrowawayInfluxDb | undefined> {
  if (process.env.E2E_INFLUXDB === 'off') {
    return undefined;
  }
  const influxd = onPath('influxd');
  if (!influxd) {
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'cdn-e2e-influxdb-'));
  const [httpPort, rpcPort] = await freePorts(2);
  const config = join(dir, 'influxdb.conf');
  writeFileSync(
    config,
    [
      'reporting-disabled = true',
      `bind-address = "127.0.0.1:${rpcPort}"`,
      '[meta]',
      `  dir = "${join(dir, 'meta')}"`,
      '[data]',
      `  dir = "${join(dir, 'data')}"`,
      `  wal-dir = "${join(dir, 'wal')}"`,
      '  query-log-enabled = false',
      '[http]',
      `  bind-address = "127.0.0.1:${httpPort}"`,
      '  log-enabled = false',
      '[logging]',
      '  level = "error"',
      '[monitor]',
      '  store-enabled = false',
      '[continuous_queries]',
      '  enabled = false',
      '[subscriber]',
      '  enabled = false',
      '',
    ].join('\n'),
  );
  const log = openSync(join(dir, 'influxd.log'), 'a');
  const child = spawn(influxd, ['-config', config], { stdio: ['ignore', log, log], detached: true });
  child.unref();
  const url = `http://127.0.0.1:${httpPort}`;
  const deadline = Date.now() + 20000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      break;
    }
    try {
      const res = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(1000) });
      if (res.status === 204) {
        return { url, pid: child.pid!, dir };
      }
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  let output = '';
  try {
    output = readFileSync(join(dir, 'influxd.log'), 'utf8').slice(-2000);
  } catch {
    // no log
  }
  await stopInfluxDb({ pid: child.pid, dir });
  throw new Error(
    `influxd did not answer /ping within 20 s (set E2E_INFLUXDB=off to run without it)\n${output}`,
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Kills the run's influxd (by its own pid), waits for it to go, and removes its directory. */
export async function stopInfluxDb(influx: { pid?: number; dir?: string }): Promise<void> {
  if (influx.pid && alive(influx.pid)) {
    process.kill(influx.pid, 'SIGKILL');
    const deadline = Date.now() + 5000;
    while (alive(influx.pid) && Date.now() < deadline) {
      await sleep(50);
    }
  }
  if (influx.dir) {
    rmSync(influx.dir, { recursive: true, force: true });
  }
}

/** Runs InfluxQL statements against the run's InfluxDB (test set-up), failing on any error. */
export async function influxQuery(url: string, q: string): Promise<unknown> {
  const res = await fetch(`${url}/query`, { method: 'POST', body: new URLSearchParams({ q }) });
  const body = (await res.json()) as { error?: string; results?: { error?: string }[] };
  const error = body.error ?? body.results?.find((r) => r.error)?.error;
  if (!res.ok || error) {
    throw new Error(`InfluxDB query ${q} failed: ${res.status} ${error}`);
  }
  return body;
}

/** Writes line-protocol points (timestamps in seconds) into `database`.`retentionPolicy`. */
export async function influxWrite(
  url: string,
  database: string,
  retentionPolicy: string,
  lines: string[],
): Promise<void> {
  const params = new URLSearchParams({ db: database, rp: retentionPolicy, precision: 's' });
  const res = await fetch(`${url}/write?${params.toString()}`, { method: 'POST', body: lines.join('\n') });
  if (res.status !== 204) {
    throw new Error(`InfluxDB write failed: ${res.status} ${await res.text()}`);
  }
}

/**
 * A describe of the tests that need the run's InfluxDB, skipped (and titled so) when it is not up;
 * `fn` gets the InfluxDB's URL.
 */
export function describeWithInfluxDb(fn: (url: string) => void): void {
  const running = influxDbRunning();
  (running ? describe : describe.skip)(
    running
      ? 'with InfluxDB (a throwaway influxd of the run)'
      : 'with InfluxDB (InfluxDB not installed, or E2E_INFLUXDB=off: skipped)',
    () => fn(process.env.INFLUXDB_URL!),
  );
}
