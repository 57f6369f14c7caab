import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as mysql from 'mysql2/promise';

const run = promisify(execFile);

/** The Galera provider of Debian's galera-4 package. */
export const GALERA_PROVIDER = process.env.GALERA_PROVIDER ?? '/usr/lib/galera/libgalera_smm.so';
const MARIADBD = process.env.MARIADBD ?? '/usr/sbin/mariadbd';

/**
 * A MariaDB Galera cluster (three nodes in the tests and the bench) on loopback ports, each node in a private data directory under
 * `dir` (never the machine's own MariaDB). Node i (0-based) listens for SQL on `basePort + i`, for
 * the cluster's group communication on `basePort + 261 + 10 i` (4567 with the default 4306), for
 * incremental state transfers (IST) on the next port and for full ones (SST, rsync) on the one after.
 */
export interface ClusterLayout {
  dir: string;
  basePort: number;
  nodes: number;
}

export const sqlPort = (layout: ClusterLayout, i: number): number => layout.basePort + i;
const groupPort = (layout: ClusterLayout, i: number): number => layout.basePort + 261 + 10 * i;
export const nodeDir = (layout: ClusterLayout, i: number): string => join(layout.dir, `node${i + 1}`);

/** The layout the cluster suite's setup wrote (CLUSTER_LAYOUT), for the suites. */
export function layoutFromEnv(): ClusterLayout {
  return JSON.parse(process.env.CLUSTER_LAYOUT ?? '{}') as ClusterLayout;
}

function nodeArgs(layout: ClusterLayout, i: number): string[] {
  const dir = nodeDir(layout, i);
  const members = Array.from({ length: layout.nodes }, (_, n) => `127.0.0.1:${groupPort(layout, n)}`);
  const group = groupPort(layout, i);
  return [
    '--no-defaults',
    '--user=root',
    `--datadir=${dir}`,
    `--port=${sqlPort(layout, i)}`,
    '--bind-address=127.0.0.1',
    `--socket=${join(dir, 'mysqld.sock')}`,
    `--pid-file=${join(dir, 'mysqld.pid')}`,
    `--log-error=${join(dir, 'error.log')}`,
    '--innodb-buffer-pool-size=64M',
    '--innodb-log-file-size=32M',
    '--innodb-flush-log-at-trx-commit=2',
    '--max-connections=300',
    // What Galera needs: row-based replication, InnoDB, interleaved auto-increment locking.
    '--binlog-format=ROW',
    '--default-storage-engine=InnoDB',
    '--innodb-autoinc-lock-mode=2',
    '--wsrep-on=ON',
    `--wsrep-provider=${GALERA_PROVIDER}`,
    '--wsrep-cluster-name=cdn-cluster-test',
    `--wsrep-cluster-address=gcomm://${members.join(',')}`,
    `--wsrep-node-address=127.0.0.1:${group}`,
    `--wsrep-node-name=node${i + 1}`,
    '--wsrep-provider-options=' +
      [
        `gmcast.listen_addr=tcp://127.0.0.1:${group}`,
        `ist.recv_addr=127.0.0.1:${group + 1}`,
        'gcache.size=128M',
        // A killed node is noticed within seconds (the defaults wait 5 s to suspect, 15 s to evict).
        'evs.suspect_timeout=PT3S',
        'evs.inactive_timeout=PT6S',
        'evs.inactive_check_period=PT0.5S',
      ].join(';'),
    `--wsrep-sst-receive-address=127.0.0.1:${group + 2}`,
    '--wsrep-sst-method=rsync',
  ];
}

/** The rsync daemon of an SST runs as `nobody` when started by root: it must own the joiner's files. */
function letSstWrite(dir: string): void {
  if (process.getuid?.() !== 0) {
    return;
  }
  const { uid, gid } = { uid: 65534, gid: 65534 };
  const walk = (path: string): void => {
    chownSync(path, uid, gid);
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path)) {
        walk(join(path, entry));
      }
    }
  };
  walk(dir);
}

function startProcess(layout: ClusterLayout, i: number, extra: string[]): ChildProcess {
  const child = spawn(MARIADBD, [...nodeArgs(layout, i), ...extra], { detached: true, stdio: 'ignore' });
  child.unref();
  return child;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A root connection to node i over TCP. */
export function connectNode(layout: ClusterLayout, i: number, database?: string): Promise<mysql.Connection> {
  return mysql.createConnection({
    host: '127.0.0.1',
    port: sqlPort(layout, i),
    user: 'root',
    database,
    connectTimeout: 2000,
  });
}

/** A status variable of node i, or undefined when it does not answer. */
export async function nodeStatus(
  layout: ClusterLayout,
  i: number,
  name: string,
): Promise<string | undefined> {
  try {
    const connection = await connectNode(layout, i);
    try {
      const [rows] = await connection.query<mysql.RowDataPacket[]>('SHOW STATUS LIKE ?', [name]);
      return rows[0]?.Value as string | undefined;
    } finally {
      await connection.end();
    }
  } catch {
    return undefined;
  }
}

/** Waits until `check` holds, at most `timeoutMs`; fails with `what` otherwise. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await pause(250);
  }
}

/** Waits until node i is part of the primary component and has caught up (Synced). */
export function waitSynced(layout: ClusterLayout, i: number): Promise<void> {
  return waitFor(
    `node ${i + 1} to be synced`,
    async () => (await nodeStatus(layout, i, 'wsrep_local_state_comment')) === 'Synced',
  );
}

/** The pid of node i's server, while it runs. */
export function nodePid(layout: ClusterLayout, i: number): number | undefined {
  const file = join(nodeDir(layout, i), 'mysqld.pid');
  if (!existsSync(file)) {
    return undefined;
  }
  const pid = Number(readFileSync(file, 'utf8').trim());
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** Starts node 1 from a fresh data directory as a new cluster (--wsrep-new-cluster), alone. */
export async function startFirstNode(layout: ClusterLayout): Promise<void> {
  mkdirSync(layout.dir, { recursive: true });
  await run('mariadb-install-db', [
    '--no-defaults',
    '--user=root',
    `--datadir=${nodeDir(layout, 0)}`,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
  ]);
  startProcess(layout, 0, ['--wsrep-new-cluster']);
  await waitSynced(layout, 0);
}

/**
 * Starts the other nodes from empty data directories: they join node 1's cluster by a full state
 * transfer. Resolves when wsrep_cluster_size is the number of nodes and every node is synced.
 */
export async function joinOtherNodes(layout: ClusterLayout): Promise<void> {
  for (let i = 1; i < layout.nodes; i++) {
    mkdirSync(nodeDir(layout, i), { recursive: true });
    letSstWrite(nodeDir(layout, i));
    startProcess(layout, i, []);
  }
  for (let i = 1; i < layout.nodes; i++) {
    await waitSynced(layout, i);
  }
  await waitFor(
    `wsrep_cluster_size ${layout.nodes}`,
    async () => (await nodeStatus(layout, 0, 'wsrep_cluster_size')) === String(layout.nodes),
  );
}

/** Starts the whole cluster: node 1 first, then the others join it. */
export async function startCluster(layout: ClusterLayout): Promise<void> {
  await startFirstNode(layout);
  await joinOtherNodes(layout);
}

/** Kills node i's server at once (SIGKILL): no shutdown, as when a machine dies. */
export function killNode(layout: ClusterLayout, i: number): void {
  const pid = nodePid(layout, i);
  if (pid === undefined) {
    throw new Error(`node ${i + 1} is not running`);
  }
  process.kill(pid, 'SIGKILL');
}

/**
 * Restarts node i after a crash: recovers the position its storage reached (--wsrep-recover, as the
 * packaged service does), then starts it there so that it rejoins by an incremental state transfer
 * (IST; a full one when the cluster's cache no longer has the writes it missed). Resolves when synced.
 */
export async function restartNode(layout: ClusterLayout, i: number): Promise<void> {
  await waitFor(`node ${i + 1} to stop`, () => Promise.resolve(nodePid(layout, i) === undefined), 30_000);
  const recoverLog = join(nodeDir(layout, i), 'recover.log');
  await run(MARIADBD, [...nodeArgs(layout, i), '--wsrep-recover', `--log-error=${recoverLog}`]);
  const position = /Recovered position: (\S+)/.exec(readFileSync(recoverLog, 'utf8'))?.[1];
  letSstWrite(nodeDir(layout, i));
  startProcess(layout, i, position ? [`--wsrep-start-position=${position}`] : []);
  await waitSynced(layout, i);
}

/** Stops every node (SIGTERM, then SIGKILL after a while). */
export async function stopCluster(layout: ClusterLayout): Promise<void> {
  const pids = Array.from({ length: layout.nodes }, (_, i) => nodePid(layout, i)).filter(
    (pid): pid is number => pid !== undefined,
  );
  for (const pid of pids) {
    process.kill(pid, 'SIGTERM');
  }
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + 30_000;
  while (pids.some(alive) && Date.now() < deadline) {
    await pause(200);
  }
  for (const pid of pids.filter(alive)) {
    process.kill(pid, 'SIGKILL');
  }
}
