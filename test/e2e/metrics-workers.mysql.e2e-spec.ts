import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import request, { type Response } from 'supertest';
import { uniqueName } from 'test/e2e/support/api';
import { MALLOC_TUNABLES, SERVING_NODE_FLAGS } from 'src/bootstrap/worker-runtime';
import { type Child, freePort, startServer } from 'test/e2e/support/child-process';
import { ADMIN_PASSWORD } from 'test/e2e/support/constants';
import { parseMetrics, type Sample, valueOf } from 'test/e2e/support/metrics';

/** The PID field of an RFC 5424 message from the audit sink, and the change log's text after it. */
const SYSLOG = /^<\d+>1 \S+ \S+ \S+ (\d+) \S+ \[audit@32473 [^\]]*\] (.*)$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(50);
  }
}

/** A server with two workers, its audit sink's syslog messages, and an admin session. */
interface Workers {
  server: Child;
  base: string;
  /** The audit sink's messages: the PID of the worker that wrote each entry, and its text. */
  received: { pid: number; text: string }[];
  /** How many times a worker said it listens (2 at the start, one more per replacement). */
  listening(): number;
  /** A request on a new connection (closed after it), so that the primary picks the next worker. */
  send(method: 'get' | 'post', path: string, body?: object): Promise<Response>;
  /** Creates divisions named `${prefix}-${i}`, then waits for their syslog messages. */
  write(prefix: string, count: number): Promise<{ pid: number; text: string }[]>;
  stop(): Promise<void>;
}

async function startWorkers(env: Record<string, string> = {}): Promise<Workers> {
  const received: { pid: number; text: string }[] = [];
  const socket = createSocket('udp4');
  socket.on('message', (message) => {
    const match = SYSLOG.exec(message.toString('utf8'));
    if (match) {
      received.push({ pid: Number(match[1]), text: match[2] });
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { server, port } = await startServer({
    env: {
      WEB_CONCURRENCY: '2',
      LOG_LEVEL: 'info',
      GLIBC_TUNABLES: undefined,
      AUDIT_SINK_URL: `syslog+udp://127.0.0.1:${socket.address().port}`,
      ...env,
    },
    // Two workers compile the sources each (ts-node): slow on a busy machine.
    startTimeoutMs: 150_000,
  });
  const base = `http://127.0.0.1:${port}`;
  const listening = () =>
    server.lines().filter((line) => String(line.msg).startsWith('listening on ')).length;
  await until(() => listening() === 2, 'both workers to listen', 120_000);
  const login = await request(base)
    .post('/api/4.0/user/login')
    .set('Connection', 'close')
    .send({ u: 'admin', p: ADMIN_PASSWORD });
  expect(login.status).toBe(200);
  const cookie = ([] as string[])
    .concat(login.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('mojolicious='))!
    .split(';')[0];
  const send = (method: 'get' | 'post', path: string, body?: object): Promise<Response> => {
    const req = request(base)[method](path).set('Connection', 'close').set('Cookie', cookie);
    return body ? req.send(body) : req;
  };
  return {
    server,
    base,
    received,
    listening,
    send,
    write: async (prefix, count) => {
      for (let i = 0; i < count; i++) {
        expect((await send('post', '/api/4.0/divisions', { name: `${prefix}-${i}` })).status).toBe(200);
      }
      const mine = () => received.filter((m) => m.text.includes(`${prefix}-`));
      await until(() => mine().length === count, `${count} syslog messages`);
      return mine();
    },
    stop: async () => {
      server.kill('SIGTERM');
      await server.exited;
      socket.close();
    },
  };
}

/** How many of `messages` each worker (PID) wrote. */
const perWorker = (messages: { pid: number }[]): Map<number, number> => {
  const counts = new Map<number, number>();
  for (const { pid } of messages) {
    counts.set(pid, (counts.get(pid) ?? 0) + 1);
  }
  return counts;
};

const ping = { route: '/ping', method: 'GET', version: '4.0', status: '2xx' };
const divisionsCreated = { route: '/divisions', method: 'POST', version: '4.0', status: '2xx' };

/** GET /metrics at `url`, which must answer 200. */
async function scrapeAt(url: string): Promise<{ samples: Sample[]; ms: number }> {
  const started = Date.now();
  const res = await request(url).get('/metrics').set('Connection', 'close');
  const ms = Date.now() - started;
  expect({ status: res.status, text: res.status === 200 ? '' : res.text }).toEqual({ status: 200, text: '' });
  return { samples: parseMetrics(res.text), ms };
}

/**
 * GET /metrics of a server with two worker processes (WEB_CONCURRENCY=2, which needs MySQL): the
 * scrape, whichever worker answers it, has the figures of the whole process — the sum over the
 * workers (docs/decisions.md#d160, #d186). Each request goes on a connection of its own, which the
 * primary hands to the workers in turn. Which worker served a write is known independently of the
 * metrics: the audit sink's syslog messages carry the PID of the process that wrote the entry.
 */
describe('GET /metrics with WEB_CONCURRENCY=2', () => {
  let workers: Workers;
  let received: Workers['received'];
  let send: Workers['send'];
  let server: Child;
  const scrape = () => scrapeAt(workers.base);

  beforeAll(async () => {
    workers = await startWorkers();
    ({ received, send, server } = workers);
  }, 300_000);

  afterAll(() => workers?.stop(), 60_000);

  it('answers every scrape, on either worker, with the sum of both workers’ counts', async () => {
    const writes = 16;
    // Each worker wrote some of them (and so counted only those itself).
    const counts = perWorker(await workers.write(uniqueName('mw', 20), writes));
    expect(counts.size).toBe(2);
    expect([...counts.values()].every((n) => n > 0 && n < writes)).toBe(true);
    // Every scrape (each on a new connection: both workers answer some) has the whole count.
    for (let i = 0; i < 4; i++) {
      const { samples } = await scrape();
      expect(valueOf(samples, 'http_requests_total', divisionsCreated)).toBe(writes);
      expect(valueOf(samples, 'http_request_duration_seconds_count', divisionsCreated)).toBe(writes);
      expect(
        valueOf(samples, 'http_request_duration_seconds_bucket', { ...divisionsCreated, le: '+Inf' }),
      ).toBe(writes);
      expect(valueOf(samples, 'change_log_writes_total', { resource: 'divisions' })).toBe(writes);
      expect(valueOf(samples, 'auth_sign_ins_total', { result: 'success' })).toBe(1);
    }
  });

  it('runs each worker with the serving flags and the malloc setting, which the primary was started without', () => {
    const primary = server.process.pid!;
    const nulSeparated = (file: string) => readFileSync(file, 'utf8').split('\0');
    const workerPids = readFileSync(`/proc/${primary}/task/${primary}/children`, 'utf8').trim().split(' ');
    expect(workerPids).toHaveLength(2);
    for (const pid of workerPids) {
      expect(nulSeparated(`/proc/${pid}/cmdline`)).toEqual(expect.arrayContaining([...SERVING_NODE_FLAGS]));
      expect(nulSeparated(`/proc/${pid}/environ`)).toContain(`GLIBC_TUNABLES=${MALLOC_TUNABLES}`);
    }
    const primaryArgv = nulSeparated(`/proc/${primary}/cmdline`);
    expect(SERVING_NODE_FLAGS.filter((flag) => primaryArgv.includes(flag))).toEqual([]);
    expect(nulSeparated(`/proc/${primary}/environ`).some((v) => v.startsWith('GLIBC_TUNABLES='))).toBe(false);
  });

  it('answers scrapes while requests are spread over the workers, each figure only growing, and exactly in the end', async () => {
    const before = valueOf((await scrape()).samples, 'http_requests_total', ping);
    let sent = 0;
    let running = true;
    const client = async (): Promise<void> => {
      while (running) {
        expect((await send('get', '/api/4.0/ping')).status).toBe(200);
        sent++;
      }
    };
    const clients = Array.from({ length: 4 }, () => client());
    const seen: number[] = [];
    try {
      for (let i = 0; i < 8; i++) {
        const { samples, ms } = await scrape();
        expect(ms).toBeLessThan(3000);
        seen.push(valueOf(samples, 'http_requests_total', ping) - before);
        await sleep(100);
      }
    } finally {
      running = false;
      await Promise.all(clients);
    }
    seen.slice(1).forEach((value, i) => expect(value).toBeGreaterThanOrEqual(seen[i]));
    expect(seen[seen.length - 1]).toBeGreaterThan(0);
    expect(valueOf((await scrape()).samples, 'http_requests_total', ping) - before).toBe(sent);
  });

  it('answers at once while a worker that died is replaced, with the figures of the workers alive', async () => {
    // The two workers' PIDs, from the writes they served.
    const pids = [...perWorker(await workers.write(uniqueName('mw1', 20), 4)).keys()];
    expect(pids).toHaveLength(2);
    process.kill(pids[0], 'SIGKILL');
    await until(
      () => server.lines().some((line) => String(line.msg).startsWith(`worker ${pids[0]} exited`)),
      'the primary to see the worker exit',
    );
    // The primary starts another worker; until it listens, every scrape is answered by the other
    // one, promptly, without the new worker's figures (it has none yet).
    const started = Date.now();
    let during = 0;
    while (workers.listening() < 3) {
      if (Date.now() - started > 120_000) {
        throw new Error(`no worker replaced the one killed:\n${server.stdout}`);
      }
      const { ms, samples } = await scrape();
      expect(ms).toBeLessThan(3000);
      expect(valueOf(samples, 'auth_sign_ins_total', { result: 'success' })).toBeLessThanOrEqual(1);
      during++;
      await sleep(100);
    }
    expect(during).toBeGreaterThan(0);
    // Both workers answer again; the killed one's counts are gone with it (a counter reset to Prometheus).
    const writers = perWorker(await workers.write(uniqueName('mw2', 20), 6));
    expect(writers.size).toBe(2);
    expect(writers.has(pids[0])).toBe(false);
    const { samples } = await scrape();
    const survivorWrites = received.filter((m) => m.pid === pids[1]).length;
    const replacementWrites = received.filter((m) => !pids.includes(m.pid)).length;
    expect(replacementWrites).toBeGreaterThan(0);
    expect(valueOf(samples, 'change_log_writes_total', { resource: 'divisions' })).toBe(
      survivorWrites + replacementWrites,
    );
  }, 180_000);
});

/** With METRICS_PORT the primary serves the sum itself, on its own port. */
describe('GET /metrics on METRICS_PORT with WEB_CONCURRENCY=2', () => {
  let workers: Workers;
  let metrics: string;

  beforeAll(async () => {
    const metricsPort = await freePort();
    metrics = `http://127.0.0.1:${metricsPort}`;
    workers = await startWorkers({ METRICS_PORT: String(metricsPort) });
  }, 300_000);

  afterAll(() => workers?.stop(), 60_000);

  it('answers with the sum of both workers’ counts', async () => {
    const writes = 10;
    expect(perWorker(await workers.write(uniqueName('mp', 20), writes)).size).toBe(2);
    const { samples } = await scrapeAt(metrics);
    expect(valueOf(samples, 'http_requests_total', divisionsCreated)).toBe(writes);
    expect(valueOf(samples, 'change_log_writes_total', { resource: 'divisions' })).toBe(writes);
    expect((await request(workers.base).get('/metrics').set('Connection', 'close')).status).toBe(404);
  });
});
