import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { type Child, freePort, startServer } from 'test/e2e/support/child-process';
import { ADMIN_PASSWORD } from 'test/e2e/support/constants';

type Line = Record<string, unknown>;

/**
 * The logs of a running server (src/main.ts as a child process, LOG_FORMAT=json, its stdout read
 * line by line), started from a directory with a `.env` file, on the run's database.
 */
describe('logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cdn-e2e-logs-'));
  let server: Child;
  let lines: Line[];
  let serverName: string | undefined;
  let cookie: string;
  const WRONG_PASSWORD = 'not-the-password-31';

  beforeAll(async () => {
    // An InfluxDB that is not there: GET current_stats then logs a warning of its own.
    const closedPort = await freePort();
    writeFileSync(
      join(dir, '.env'),
      [
        '# read at start-up; the real environment wins',
        'SERVER_NAME=from-the-env-file',
        'LOG_LEVEL=debug',
        `INFLUXDB_URL=http://127.0.0.1:${closedPort}`,
        '',
      ].join('\n'),
    );
    let port: number;
    ({ server, port } = await startServer({
      cwd: dir,
      env: { LOG_LEVEL: 'info', SERVER_NAME: undefined, INFLUXDB_URL: undefined },
    }));
    const api = request(`http://127.0.0.1:${port}`);
    const ping = await api.get('/api/4.0/ping').set('X-Request-Id', 'log-ping');
    serverName = ping.headers['x-server-name'];
    const login = await api
      .post('/api/4.0/user/login')
      .set('X-Request-Id', 'log-login')
      .send({ u: 'admin', p: ADMIN_PASSWORD });
    cookie = String((login.headers['set-cookie'] as unknown as string[] | undefined)?.[0]).split(';')[0];
    await api.get('/api/4.0/cdns?orderby=name').set('Cookie', cookie).set('X-Request-Id', 'log-cdns');
    await api.get('/api/4.0/current_stats').set('Cookie', cookie).set('X-Request-Id', 'log-stats');
    await api.get('/api/4.0/no-such-thing').set('X-Request-Id', 'log-404');
    await api.get('/api/9.9/cdns').set('X-Request-Id', 'log-501');
    await api
      .post('/api/4.0/user/login')
      .set('X-Request-Id', 'log-401')
      .send({ u: 'admin', p: WRONG_PASSWORD });
    server.kill('SIGTERM');
    await server.exited;
    lines = server.lines();
  }, 120_000);

  afterAll(() => {
    server?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const byRequest = (reqId: string) => lines.filter((line) => line.reqId === reqId);

  it('start up in a few lines: version, database, address, workers; no route or module lines', () => {
    const firstRequest = lines.findIndex((line) => line.reqId !== undefined);
    const startup = lines.slice(0, firstRequest);
    expect(startup.length).toBeLessThanOrEqual(3);
    expect(startup[0]).toMatchObject({
      level: 30,
      version: expect.any(String),
      node: process.version,
      workers: 1,
      msg: expect.stringMatching(/^starting cdn-control-plane \S+ \(Node v[\d.]+, 1 worker\(s\), .+\)$/),
    });
    expect(startup[startup.length - 1]).toMatchObject({
      level: 30,
      msg: expect.stringMatching(
        /^listening on http:\/\/127\.0\.0\.1:\d+\/api\/ \(.+, schema \w+; 1 worker\)$/,
      ),
    });
    expect(JSON.stringify(lines)).not.toMatch(
      /Mapped \{|RouterExplorer|RoutesResolver|InstanceLoader|NestFactory/,
    );
  });

  it('write one JSON line per request: id, method, path, status, duration, user and tenant', () => {
    expect(byRequest('log-cdns')).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        reqId: 'log-cdns',
        method: 'GET',
        path: '/api/4.0/cdns',
        status: 200,
        ms: expect.any(Number),
        user: 'admin',
        userId: expect.any(Number),
        tenantId: 1,
        msg: 'request',
      },
    ]);
    expect(byRequest('log-ping')).toEqual([expect.objectContaining({ path: '/api/4.0/ping', status: 200 })]);
  });

  it("mark a service's own line with the request's id", () => {
    expect(byRequest('log-stats')).toEqual([
      expect.objectContaining({
        level: 40,
        context: 'CurrentStatsService',
        msg: expect.stringMatching(/^current_stats without figures: /),
      }),
      expect.objectContaining({ level: 30, msg: 'request', status: 200, user: 'admin' }),
    ]);
  });

  it('log client errors (404, 501 for an unknown version, 401) as requests, without a stack', () => {
    for (const [reqId, method, status] of [
      ['log-404', 'GET', 404],
      ['log-501', 'GET', 501],
      ['log-401', 'POST', 401],
    ] as const) {
      expect(byRequest(reqId)).toEqual([
        {
          level: 30,
          time: expect.any(Number),
          reqId,
          method,
          path: expect.any(String),
          status,
          ms: expect.any(Number),
          msg: 'request',
        },
      ]);
    }
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });

  it('never write a password, a cookie or a header', () => {
    const text = JSON.stringify(lines);
    expect(text).not.toContain(ADMIN_PASSWORD);
    expect(text).not.toContain(WRONG_PASSWORD);
    expect(text).not.toContain(cookie.split('=')[1]);
    expect(text).not.toMatch(/mojolicious|cookie|user-agent|orderby/i);
  });

  it('read .env at start-up, the real environment winning', () => {
    expect(serverName).toBe('from-the-env-file');
    // LOG_LEVEL=debug in the file, info in the environment: no debug lines.
    expect(lines.filter((line) => line.level === 20)).toEqual([]);
  });

  it('end with one line at shutdown', () => {
    const last = lines[lines.length - 1];
    expect(last).toMatchObject({
      level: 30,
      signal: 'SIGTERM',
      msg: expect.stringMatching(/^stopped on SIGTERM: /),
    });
    expect(lines.filter((line) => String(line.msg).startsWith('stopped'))).toHaveLength(1);
  });
});
