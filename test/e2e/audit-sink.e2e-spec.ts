import type { INestApplication } from '@nestjs/common';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { ApiClient, uniqueName } from 'test/e2e/support/api';
import { createTestAppWithEnv } from 'test/e2e/support/app';
import { scrape, valueOf } from 'test/e2e/support/metrics';
import type { App } from 'supertest/types';

/** An RFC 5424 message as the sink writes it: user and level in structured data, then the text. */
const SYSLOG =
  /^<109>1 \d{4}-\d\d-\d\dT[\d:.]+Z \S+ cdn-control-plane \d+ APICHANGE \[audit@32473 user="([^"]*)" level="APICHANGE"\] (.*)$/s;

/** Waits until `done()` holds (delivery is asynchronous): polls, and gives up after `limitMs`. */
async function until(done: () => boolean, what: string, limitMs = 15_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > deadline) {
      throw new Error(`gave up waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The change log's entries after `afterId`, oldest first, as GET logs shows them. */
async function logsAfter(admin: ApiClient, afterId: number): Promise<{ id: number; message: string }[]> {
  const res = await admin.get('logs?username=admin&limit=100');
  const entries = (res.body as { response: { id: number; message: string }[] }).response;
  return entries.filter((e) => e.id > afterId).reverse();
}

/** Three changes (two cdns created, the first deleted); returns the change log's text of them, oldest first. */
async function makeChanges(admin: ApiClient, prefix: string): Promise<string[]> {
  const newest = (await logsAfter(admin, 0)).map((e) => e.id);
  const afterId = newest.length > 0 ? Math.max(...newest) : 0;
  const ids: number[] = [];
  for (const n of [1, 2]) {
    const name = uniqueName(`${prefix}${n}`);
    const res = await admin.post('cdns', { name, domainName: `${name}.example.net`, dnssecEnabled: false });
    expect(res.status).toBe(200);
    ids.push((res.body as { response: { id: number } }).response.id);
  }
  expect((await admin.delete(`cdns/${ids[0]}`)).status).toBe(200);
  return (await logsAfter(admin, afterId)).map((e) => e.message);
}

async function startApp(
  url: string,
  extra: Record<string, string> = {},
): Promise<{ app: INestApplication; admin: ApiClient }> {
  const app = await createTestAppWithEnv({ AUDIT_SINK_URL: url, ...extra });
  return { app, admin: await ApiClient.admin(app) };
}

describe('audit sink: syslog over UDP', () => {
  const received: string[] = [];
  let socket: UdpSocket;
  let app: INestApplication;
  let admin: ApiClient;

  beforeAll(async () => {
    socket = createSocket('udp4');
    socket.on('message', (message) => received.push(message.toString('utf8')));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    ({ app, admin } = await startApp(`syslog+udp://127.0.0.1:${socket.address().port}`));
  });

  afterAll(async () => {
    await app?.close();
    socket.close();
  });

  it('receives every entry, in order, with the text GET logs shows', async () => {
    const prefix = uniqueName('udp').slice(0, 12);
    const logged = await makeChanges(admin, prefix);
    expect(logged).toHaveLength(3);
    const mine = () => received.map((m) => SYSLOG.exec(m));
    await until(() => mine().length >= 3, '3 syslog datagrams');
    expect(mine().every((m) => m !== null)).toBe(true);
    expect(mine().map((m) => m![2])).toEqual(logged);
    expect(mine().map((m) => m![1])).toEqual(['admin', 'admin', 'admin']);
  });
});

describe('audit sink: syslog over TCP', () => {
  let buffered = Buffer.alloc(0);
  const received: string[] = [];
  let server: TcpServer;
  let app: INestApplication;
  let admin: ApiClient;

  beforeAll(async () => {
    server = createTcpServer((connection) => {
      connection.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        // Octet counting (RFC 6587): LENGTH SP MESSAGE.
        for (;;) {
          const space = buffered.indexOf(0x20);
          const length = space > 0 ? Number(buffered.subarray(0, space).toString()) : NaN;
          if (Number.isNaN(length) || buffered.length < space + 1 + length) {
            break;
          }
          received.push(buffered.subarray(space + 1, space + 1 + length).toString('utf8'));
          buffered = buffered.subarray(space + 1 + length);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ({ app, admin } = await startApp(`syslog+tcp://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });

  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('receives every entry, in order, framed by octet counting', async () => {
    const prefix = uniqueName('tcp').slice(0, 12);
    const logged = await makeChanges(admin, prefix);
    const mine = () => received.map((m) => SYSLOG.exec(m));
    await until(() => mine().length >= 3, '3 syslog messages over TCP');
    expect(mine().every((m) => m !== null)).toBe(true);
    expect(mine().map((m) => m![2])).toEqual(logged);
  });
});

describe('audit sink: a webhook that fails, then recovers', () => {
  const received: { user: string; level: string; message: string; time: string }[] = [];
  let failuresLeft = 3;
  let attempts = 0;
  let server: HttpServer;
  let app: INestApplication;
  let admin: ApiClient;

  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        attempts++;
        if (failuresLeft > 0) {
          failuresLeft--;
          res.statusCode = 503;
          res.end('down');
          return;
        }
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof received)[number]);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ({ app, admin } = await startApp(`http://127.0.0.1:${(server.address() as AddressInfo).port}/audit`));
  });

  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('gets every entry once it recovers, in order, while the writes never waited for it', async () => {
    const before = await scrape(app.getHttpServer() as App);
    const prefix = uniqueName('hook').slice(0, 12);
    const logged = await makeChanges(admin, prefix);
    await until(() => received.length >= 3, '3 webhook posts');
    const mine = received;
    expect(mine.map((e) => e.message)).toEqual(logged);
    expect(mine.map((e) => [e.user, e.level])).toEqual(Array(3).fill(['admin', 'APICHANGE']));
    mine.forEach((e) => expect(new Date(e.time).toISOString()).toBe(e.time));
    expect(attempts).toBe(3 + 3);
    const after = await scrape(app.getHttpServer() as App);
    expect(valueOf(after, 'audit_sink_sent_total', { sink: 'webhook' })).toBe(
      valueOf(before, 'audit_sink_sent_total', { sink: 'webhook' }) + 3,
    );
  });
});

describe('audit sink: down', () => {
  let app: INestApplication;
  let admin: ApiClient;

  beforeAll(async () => {
    // A port nothing listens on: every connection is refused.
    const probe = createTcpServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    ({ app, admin } = await startApp(`syslog+tcp://127.0.0.1:${port}`, { AUDIT_SINK_QUEUE: '2' }));
  });

  afterAll(() => app?.close());

  it('never fails a write; what the bounded queue cannot keep is counted as unsent', async () => {
    const server = app.getHttpServer() as App;
    const before = await scrape(server);
    const prefix = uniqueName('down').slice(0, 12);
    const logged = await makeChanges(admin, prefix);
    expect(logged).toHaveLength(3);
    const name = uniqueName(prefix);
    expect(
      (await admin.post('cdns', { name, domainName: `${name}.example.net`, dnssecEnabled: false })).status,
    ).toBe(200);
    const after = await scrape(server);
    const labels = { sink: 'syslog', reason: 'queue_full' };
    expect(
      valueOf(after, 'audit_sink_unsent_total', labels) - valueOf(before, 'audit_sink_unsent_total', labels),
    ).toBe(2);
    expect(valueOf(after, 'audit_sink_queued', { sink: 'syslog' })).toBe(2);
  });
});
