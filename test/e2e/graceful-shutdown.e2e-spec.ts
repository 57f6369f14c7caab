import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { uniqueName } from 'test/e2e/support/api';
import { ADMIN_PASSWORD } from 'test/e2e/support/constants';

const ROOT = join(__dirname, '..', '..');

/**
 * SIGTERM to a running server (src/main.ts in a child process, on the run's database): it stops
 * accepting connections at once, finishes the request in flight, then exits (Nest closes the HTTP
 * server, then the TypeORM module destroys the DataSource and its pool).
 */
describe('graceful shutdown', () => {
  let server: ChildProcess;
  let port: number;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  const freePort = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });

  const send = (
    method: string,
    path: string,
    headers: Record<string, string | number> = {},
  ): { req: ReturnType<typeof httpRequest>; response: Promise<{ res: IncomingMessage; body: string }> } => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false });
    const response = new Promise<{ res: IncomingMessage; body: string }>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ res, body }));
      });
    });
    return { req, response };
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
    port = await freePort();
    server = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'src/main.ts'],
      {
        cwd: ROOT,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', WEB_CONCURRENCY: '1' },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
    for (let attempt = 0; attempt < 120; attempt++) {
      const probe = send('GET', '/health/live');
      probe.req.end();
      const up = await probe.response.then(({ res }) => res.statusCode === 200).catch(() => false);
      if (up) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error('the server did not start');
  }, 60_000);

  afterAll(() => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGKILL');
    }
  });

  it('finishes the request in flight, refuses new connections, and exits', async () => {
    const login = send('POST', '/api/4.0/user/login', { 'Content-Type': 'application/json' });
    login.req.end(JSON.stringify({ u: 'admin', p: ADMIN_PASSWORD }));
    const { res: loginRes } = await login.response;
    expect(loginRes.statusCode).toBe(200);
    const cookie = ([] as string[]).concat(loginRes.headers['set-cookie'] ?? [])[0].split(';')[0];

    // A write whose body is still arriving when the signal comes.
    const name = uniqueName('shutdown');
    const body = Buffer.from(
      JSON.stringify({ name, domainName: `${name}.example.net`, dnssecEnabled: false }),
    );
    const inFlight = send('POST', '/api/4.0/cdns', {
      Cookie: cookie,
      'Content-Type': 'application/json',
      'Content-Length': body.length,
    });
    inFlight.req.write(body.subarray(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));

    server.kill('SIGTERM');
    let refused = false;
    for (let attempt = 0; attempt < 40 && !refused; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      refused = await refusesConnections();
    }
    expect(refused).toBe(true);

    inFlight.req.end(body.subarray(10));
    const { res, body: answer } = await inFlight.response;
    expect(res.statusCode).toBe(200);
    expect((JSON.parse(answer) as { response: { name: string } }).response.name).toBe(name);

    const { code, signal } = await exited;
    // Nest re-raises the signal once the application (HTTP server, then database pool) is closed.
    expect(signal === 'SIGTERM' || code === 0).toBe(true);
  }, 30_000);
});
