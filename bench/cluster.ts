/**
 * `npm run bench -- --only=cluster`: the service on a MariaDB Galera cluster started for the run
 * (bench/galera.ts, loopback ports from BENCH_CLUSTER_PORT, default 4406), measured first on node 1
 * alone with one instance, then with the two other nodes joined and one instance per node: the write
 * rates of the data set (through the first instance, as the other sections create it), writes spread
 * over the instances, the two large lists (servers, deliveryservices) spread over the instances, and,
 * with three nodes, the time an instance takes to serve again after its node is killed and the time
 * the node takes to rejoin. It writes (replaces) its section of docs/benchmarks.md (bench/run.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { databaseConfigFrom } from 'src/config/database.env';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';
import { BenchClient } from './client';
import { treeCpuMicros } from './comparison';
import { createDataset, type WriteRate } from './dataset';
import {
  type ClusterLayout,
  connectNode,
  joinOtherNodes,
  killNode,
  nodePid,
  restartNode,
  sqlPort,
  startFirstNode,
  stopCluster,
} from './galera';
import { type RunStart, runLine } from './sections';

export const CLUSTER_HEADING = '## A Galera cluster (issue 30)';

const PASSWORD = 'bench-admin-password';
const CLIENTS = 8;
/** Half the comparison's data set: each configuration creates it three times over (bench/dataset.ts). */
const CLUSTER_DATASET = { asns: 150, deliveryServices: 150, servers: 500 };

interface ConfigRows {
  label: string;
  writes: WriteRate[];
  spreadWrites: { perSecond: number; cpuMicrosPerWrite: number; databaseCpuMicrosPerWrite: number };
  lists: { path: string; perSecond: number; p50: number }[];
}

export interface ClusterBenchResult {
  configs: ConfigRows[];
  failoverMs?: number;
  failedRequests?: number;
  rejoinMs?: number;
}

function startInstance(root: string, databaseUrl: string, port: number): ChildProcess {
  return spawn(process.execPath, [join(root, 'dist', 'src', 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_CONCURRENCY: '1',
      ADMIN_PASSWORD: PASSWORD,
      SESSION_SECRET: 'bench-session-secret-of-at-least-32-characters',
      LOG_LEVEL: 'warn',
      DB_FAILOVER_RETRY_MS: '1000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function signedIn(base: string): Promise<BenchClient> {
  const client = new BenchClient(base);
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      await client.login('admin', PASSWORD);
      return client;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`no instance at ${base}`);
}

const stopInstance = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** `clients` closed loops of `request` for `seconds`, spread over `bases`: requests/s and the median ms. */
async function closedLoop(
  clients: BenchClient[],
  seconds: number,
  request: (client: BenchClient, n: number) => Promise<unknown>,
): Promise<{ perSecond: number; p50: number; count: number }> {
  const latencies: number[] = [];
  let n = 0;
  const end = Date.now() + seconds * 1000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      const client = clients[c % clients.length].fork();
      try {
        while (Date.now() < end) {
          const t = process.hrtime.bigint();
          await request(client, n++);
          latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        }
      } finally {
        client.close();
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / elapsed,
    p50: latencies[Math.floor(latencies.length / 2)] ?? 0,
    count: latencies.length,
  };
}

async function migrate(layout: ClusterLayout, database: string): Promise<void> {
  const connection = await connectNode(layout, 0);
  await connection.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await connection.end();
  const dataSource = new DataSource(
    buildTypeOrmOptions(
      databaseConfigFrom({ DATABASE_URL: `mysql://root@127.0.0.1:${sqlPort(layout, 0)}/${database}` }),
    ),
  );
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  await dataSource.destroy();
}

/** One configuration: `nodes` nodes in use, one instance on each. */
async function measure(
  root: string,
  layout: ClusterLayout,
  nodes: number,
  port: number,
  seconds: number,
  afterwards?: (instances: ChildProcess[], clients: BenchClient[]) => Promise<void>,
): Promise<ConfigRows> {
  const database = `bench_cluster_${nodes}`;
  await migrate(layout, database);
  const instances: ChildProcess[] = [];
  const clients: BenchClient[] = [];
  try {
    for (let i = 0; i < nodes; i++) {
      const order = Array.from({ length: nodes }, (_, k) => (i + k) % nodes);
      const url = `mysql://root@${order.map((k) => `127.0.0.1:${sqlPort(layout, k)}`).join(',')}/${database}`;
      instances.push(startInstance(root, url, port + i));
      clients.push(await signedIn(`http://127.0.0.1:${port + i}`));
    }
    const cpu = () => instances.reduce((sum, child) => sum + treeCpuMicros(child.pid!), 0);
    const label = nodes === 1 ? 'one node, one instance' : `${nodes} nodes, one instance per node`;
    console.log(`cluster: ${label}: the data set`);
    const writes = await createDataset(clients[0], CLUSTER_DATASET, cpu);
    console.log(`cluster: ${label}: spread writes and lists`);
    // Every node that runs (with one node in use, nodes 2 and 3 are not started yet): each applies every write.
    const databaseCpu = () =>
      Array.from({ length: layout.nodes }, (_, i) => nodePid(layout, i))
        .filter((pid): pid is number => pid !== undefined)
        .reduce((sum, pid) => sum + treeCpuMicros(pid), 0);
    const cpuBefore = cpu();
    const databaseCpuBefore = databaseCpu();
    const spread = await closedLoop(clients, seconds, (client, n) =>
      client.ok('POST', '/api/4.0/divisions', { name: `bench-spread-${nodes}-${n}` }),
    );
    const spreadWrites = {
      perSecond: spread.perSecond,
      cpuMicrosPerWrite: (cpu() - cpuBefore) / Math.max(1, spread.count),
      databaseCpuMicrosPerWrite: (databaseCpu() - databaseCpuBefore) / Math.max(1, spread.count),
    };
    const lists = [];
    for (const path of ['/api/4.0/servers', '/api/4.0/deliveryservices']) {
      const result = await closedLoop(clients, seconds, (client) => client.ok('GET', path));
      lists.push({ path, perSecond: result.perSecond, p50: result.p50 });
    }
    await afterwards?.(instances, clients);
    return { label, writes, spreadWrites, lists };
  } finally {
    for (const client of clients) {
      client.close();
    }
    await Promise.all(instances.map(stopInstance));
  }
}

export async function clusterBench(root: string, port: number, seconds: number): Promise<ClusterBenchResult> {
  const layout: ClusterLayout = {
    dir: mkdtempSync(join(tmpdir(), 'cdn-bench-galera-')),
    basePort: Number(process.env.BENCH_CLUSTER_PORT ?? 4406),
    nodes: 3,
  };
  const result: ClusterBenchResult = { configs: [] };
  try {
    console.log('cluster: starting node 1');
    await startFirstNode(layout);
    result.configs.push(await measure(root, layout, 1, port, seconds));
    console.log('cluster: joining nodes 2 and 3');
    await joinOtherNodes(layout);
    result.configs.push(
      await measure(root, layout, 3, port, seconds, async (_, clients) => {
        // Instance 2 reads in a loop while its node is killed: how long until it is served again.
        const client = clients[1].fork();
        let failed = 0;
        const killedAt = Date.now();
        killNode(layout, 1);
        for (;;) {
          const res = await client.request('GET', '/api/4.0/divisions?limit=1');
          if (res.status === 200) {
            break;
          }
          failed++;
        }
        result.failoverMs = Date.now() - killedAt;
        result.failedRequests = failed;
        client.close();
        const restartedAt = Date.now();
        await restartNode(layout, 1);
        result.rejoinMs = Date.now() - restartedAt;
      }),
    );
  } finally {
    await stopCluster(layout);
    rmSync(layout.dir, { recursive: true, force: true });
  }
  return result;
}

const round = (n: number): string => Math.round(n).toLocaleString('en-US');

export function clusterReport(result: ClusterBenchResult, seconds: number, started: RunStart): string[] {
  const lines = [
    CLUSTER_HEADING,
    '',
    `A MariaDB Galera cluster started for the run on this machine's loopback (bench/galera.ts; three nodes`,
    "sharing the machine's cores, SQL ports from BENCH_CLUSTER_PORT, default 4406), measured first on node 1",
    'alone with one instance of the service, then with nodes 2 and 3 joined and one instance per node (each',
    `instance's DATABASE_URL names its own node first). ${CLIENTS} clients. The data-set writes (half the`,
    "comparison's data set, each scenario three batches) go through instance 1; the spread writes (divisions)",
    `and the two large lists go round the instances, ${seconds} s each. "Service CPU" is the CPU of every`,
    'instance of the configuration, "database CPU" that of every running node (from /proc), divided by the',
    'writes. Then node 2 is killed (SIGKILL) while instance 2 reads in a loop: the time until it is served',
    'again through another node, and the time node 2 takes to recover and rejoin. It runs only when asked;',
    'it writes this section, and a full `npm run bench` keeps it as the last run wrote it.',
    runLine('npm run bench -- --only=cluster', started),
    'The machine is shared (other jobs ran meanwhile, see the load average): the rates move with their load;',
    'compare the CPU per write rather than the rates.',
    '',
    '| configuration | scenario | rate/s | service CPU µs per write | database CPU µs per write | other |',
    '| --- | --- | ---: | ---: | ---: | --- |',
  ];
  for (const config of result.configs) {
    for (const write of config.writes) {
      lines.push(
        `| ${config.label} | ${write.scenario} (through instance 1) | ${round(write.count / write.seconds)} | ` +
          `${round(write.cpuMicros / write.count)} | | batches/s ${write.batchRates.map(round).join(', ')} |`,
      );
    }
    lines.push(
      `| ${config.label} | create divisions, spread over the instances | ${round(config.spreadWrites.perSecond)} | ` +
        `${round(config.spreadWrites.cpuMicrosPerWrite)} | ${round(config.spreadWrites.databaseCpuMicrosPerWrite)} | |`,
    );
    for (const list of config.lists) {
      lines.push(
        `| ${config.label} | GET ${list.path}, spread | ${list.perSecond.toFixed(1)} | | | p50 ${round(list.p50)} ms |`,
      );
    }
  }
  const [one, three] = result.configs;
  if (one !== undefined && three !== undefined) {
    const perWrite = (config: ConfigRows): number =>
      config.spreadWrites.cpuMicrosPerWrite + config.spreadWrites.databaseCpuMicrosPerWrite;
    lines.push(
      '',
      `What the cluster costs per write (the spread divisions): ${round(perWrite(one))} µs of CPU (service and ` +
        `database) with one node, ${round(perWrite(three))} µs with three (${(perWrite(three) / perWrite(one)).toFixed(1)} ` +
        'times): each write is certified by the group and applied on every node, here all on the same cores.',
    );
  }
  if (result.failoverMs !== undefined) {
    lines.push(
      '',
      `Failover: node 2 killed (SIGKILL) under instance 2's reads, served again after ${round(result.failoverMs)} ms ` +
        `(${result.failedRequests} request(s) answered 503 meanwhile); the node rejoined (recovery and IST) in ` +
        `${round(result.rejoinMs ?? 0)} ms.`,
    );
  }
  lines.push('');
  return lines;
}
