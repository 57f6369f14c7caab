import { Agent, type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { uniqueName } from 'test/e2e/support/api';
import type { Child } from 'test/e2e/support/child-process';
import { startServer } from 'test/e2e/support/child-process';
import { ADMIN_PASSWORD } from 'test/e2e/support/constants';

interface Answer {
  res: IncomingMessage;
  body: string;
}

/**
 * SIGTERM to a running server (src/main.ts in a child process, on the run's database): it stops
 * accepting connections, finishes every request already sent to it (on new connections and on
 * kept-alive ones, reads and writes, a body still arriving), answers them with `Connection: close`,
 * then closes the database and exits with one line.
 */
describe('graceful shutdown', () => {
  let server: Child;
  let port: number;

  const send = (
    method: string,
    path: string,
    headers: Record<string, string | number> = {},
    agent: Agent | false = false,
  ): { req: ClientRequest; response: Promise<Answer>; written: Promise<void> } => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent });
    const response = new Promise<Answer>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ res, body }));
      });
    });
    const written = new Promise<void>((resolve) => req.once('finish', () => resolve()));
    return { req, response, written };
  };

  const refusesConnections = (): Promise<boolean> =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });

  beforeAll(async () => {
    ({ server, port } = await startServer({ env: { LOG_LEVEL: 'info' } }));
  }, 120_000);

  afterAll(() => server.kill('SIGKILL'));

  it('finishes the ~32 requests in flight (reads and writes, new and kept-alive connections), refuses new connections, and exits', async () => {
    const login = send('POST', '/api/4.0/user/login', { 'Content-Type': 'application/json' });
    login.req.end(JSON.stringify({ u: 'admin', p: ADMIN_PASSWORD }));
    const { res: loginRes } = await login.response;
    expect(loginRes.statusCode).toBe(200);
    const cookie = ([] as string[]).concat(loginRes.headers['set-cookie'] ?? [])[0].split(';')[0];

    const cdnBody = (name: string) =>
      Buffer.from(JSON.stringify({ name, domainName: `${name}.example.net`, dnssecEnabled: false }));
    const write = (name: string, agent: Agent | false) => {
      const body = cdnBody(name);
      return {
        name,
        body,
        ...send(
          'POST',
          '/api/4.0/cdns',
          { Cookie: cookie, 'Content-Type': 'application/json', 'Content-Length': body.length },
          agent,
        ),
      };
    };
    const read = (path: string, agent: Agent | false) => send('GET', path, { Cookie: cookie }, agent);

    // Kept-alive connections, idle when the burst comes: each then carries one more request.
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 16 });
    const warmUp = Array.from({ length: 16 }, () => read('/api/4.0/cdns', keepAlive));
    warmUp.forEach(({ req }) => req.end());
    expect((await Promise.all(warmUp.map((r) => r.response))).map(({ res }) => res.statusCode)).toEqual(
      Array(16).fill(200),
    );

    // Writes whose bodies are still arriving when the signal comes.
    const slow = Array.from({ length: 4 }, (_, i) => write(uniqueName(`slow${i}`), false));
    slow.forEach(({ req, body }) => req.write(body.subarray(0, 10)));
    // The burst: reads and writes on the kept-alive connections and on new ones.
    const writes = [
      ...Array.from({ length: 6 }, (_, i) => write(uniqueName(`kept${i}`), keepAlive)),
      ...Array.from({ length: 6 }, (_, i) => write(uniqueName(`new${i}`), false)),
    ];
    const reads = [
      ...Array.from({ length: 10 }, () => read('/api/4.0/cdns', keepAlive)),
      ...Array.from({ length: 6 }, () => read('/api/4.0/types', false)),
    ];
    writes.forEach(({ req, body }) => req.end(body));
    reads.forEach(({ req }) => req.end());
    // Every request is sent (written to its connection) before the signal.
    await Promise.all([...writes, ...reads].map((r) => r.written));
    server.kill('SIGTERM');

    let refused = false;
    for (let attempt = 0; attempt < 40 && !refused; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      refused = await refusesConnections();
    }
    expect(refused).toBe(true);
    slow.forEach(({ req, body }) => req.end(body.subarray(10)));

    const answers = await Promise.allSettled([...slow, ...writes, ...reads].map((r) => r.response));
    const failures = answers.flatMap((a, i) =>
      a.status === 'rejected' ? [`${i}: ${String(a.reason)}`] : [],
    );
    expect(failures).toEqual([]);
    const settled = answers.map((a) => (a as PromiseFulfilledResult<Answer>).value);
    expect(settled.map(({ res }) => res.statusCode)).toEqual(Array(32).fill(200));
    const created = settled
      .slice(0, slow.length + writes.length)
      .map(({ body }) => (JSON.parse(body) as { response: { name: string } }).response.name);
    expect(created).toEqual([...slow, ...writes].map((w) => w.name));
    // The responses the shutdown sent tell the clients not to reuse their connections.
    for (const { res } of settled.slice(0, slow.length)) {
      expect(res.headers.connection).toBe('close');
    }
    keepAlive.destroy();

    const { code, signal } = await server.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const lines = server.lines();
    expect(lines.filter((line) => String(line.msg).startsWith('stopped'))).toEqual([
      expect.objectContaining({
        level: 30,
        signal: 'SIGTERM',
        forced: 0,
        msg: expect.stringMatching(
          /^stopped on SIGTERM: \d+ request\(s\) in flight finished; database closed$/,
        ),
      }),
    ]);
    expect(lines[lines.length - 1].msg).toMatch(/^stopped on SIGTERM/);
  }, 60_000);
});
