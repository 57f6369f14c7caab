import request from 'supertest';
import type { App } from 'supertest/types';
import { ADMIN_PASSWORD } from 'test/e2e/support/constants';
import { uniqueName } from 'test/e2e/support/api';
import { createTestAppWithEnv } from 'test/e2e/support/app';
import { parseMetrics, scrape, valueOf } from 'test/e2e/support/metrics';
import { useApp } from 'test/e2e/support/suite';
import { DURATION_BUCKETS } from 'src/common/metrics/route-series';

describe('GET /metrics', () => {
  const { app, admin } = useApp();
  let server: App;

  beforeAll(() => {
    server = app.getHttpServer() as App;
  });

  it('answers without a session in Prometheus text format, with the process metrics', async () => {
    const res = await request(server).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_gc_duration_seconds',
      'process_cpu_seconds_total',
      'http_request_duration_seconds',
      'db_pool_in_use',
      'auth_sign_ins_total',
      'change_log_writes_total',
      'snapshot_build_seconds',
      'audit_sink_unsent_total',
    ]) {
      expect(res.text).toContain(`# TYPE ${name} `);
    }
    expect(() => parseMetrics(res.text)).not.toThrow();
  });

  it('counts requests per route template, method, version and status class, with the latency buckets', async () => {
    const labels = { route: '/cdns', method: 'GET', version: '4.0', status: '2xx' };
    const before = await scrape(server);
    for (let i = 0; i < 3; i++) {
      expect((await admin.get('cdns')).status).toBe(200);
    }
    expect((await admin.at('5.0').get('cdns')).status).toBe(200);
    const after = await scrape(server);
    const delta = (name: string, extra: Record<string, string> = {}) =>
      valueOf(after, name, { ...labels, ...extra }) - valueOf(before, name, { ...labels, ...extra });
    expect(delta('http_requests_total')).toBe(3);
    expect(delta('http_request_duration_seconds_count')).toBe(3);
    expect(delta('http_request_duration_seconds_bucket', { le: '+Inf' })).toBe(3);
    expect(delta('http_request_duration_seconds_sum')).toBeGreaterThan(0);
    expect(valueOf(after, 'http_requests_total', { ...labels, version: '5.0' })).toBeGreaterThanOrEqual(1);
    // Cumulative buckets: never decreasing, the last equal to the count.
    const buckets = [...DURATION_BUCKETS.map(String), '+Inf'].map((le) =>
      valueOf(after, 'http_request_duration_seconds_bucket', { ...labels, le }),
    );
    buckets.slice(1).forEach((count, i) => expect(count).toBeGreaterThanOrEqual(buckets[i]));
    expect(buckets[buckets.length - 1]).toBe(valueOf(after, 'http_request_duration_seconds_count', labels));
  });

  it('labels a path with an id by its template: another id adds no series', async () => {
    expect((await admin.get('users/1')).status).toBe(200);
    const first = await scrape(server);
    expect((await admin.get('users/987654')).status).toBe(404);
    expect((await admin.get('users/1')).status).toBe(200);
    const second = await scrape(server);
    const series = (samples: typeof first) =>
      samples.filter((s) => s.name === 'http_requests_total' && s.labels.route.startsWith('/users/'));
    expect(series(first).map((s) => s.labels.route)).toEqual(['/users/:id']);
    expect(
      series(second)
        .map((s) => s.labels.status)
        .sort(),
    ).toEqual(['2xx', '4xx']);
    expect(second.some((s) => Object.values(s.labels).some((v) => /987654/.test(v)))).toBe(false);
    expect(
      valueOf(second, 'http_requests_total', {
        route: '/users/:id',
        method: 'GET',
        version: '4.0',
        status: '2xx',
      }),
    ).toBe(
      valueOf(first, 'http_requests_total', {
        route: '/users/:id',
        method: 'GET',
        version: '4.0',
        status: '2xx',
      }) + 1,
    );
  });

  it('labels requests no route answered as unmatched, whatever their path', async () => {
    const before = await scrape(server);
    expect((await admin.get(`no-such-thing/${uniqueName('x')}`)).status).toBe(404);
    expect((await request(server).get('/api/9.9/cdns')).status).toBe(501);
    expect((await request(server).get('/not-the-api/12345')).status).toBe(404);
    const after = await scrape(server);
    const unmatched = { route: 'unmatched', method: 'GET', status: '4xx' };
    expect(valueOf(after, 'http_requests_total', { ...unmatched, version: '4.0' })).toBe(
      valueOf(before, 'http_requests_total', { ...unmatched, version: '4.0' }) + 1,
    );
    expect(valueOf(after, 'http_requests_total', { ...unmatched, version: 'none' })).toBe(
      valueOf(before, 'http_requests_total', { ...unmatched, version: 'none' }) + 1,
    );
    // A version this server does not serve: its route's template, under version `none`.
    const unserved = { route: '/cdns', method: 'GET', version: 'none', status: '5xx' };
    expect(valueOf(after, 'http_requests_total', unserved)).toBe(
      valueOf(before, 'http_requests_total', unserved) + 1,
    );
    expect(after.some((s) => /no-such-thing|12345|9\.9/.test(Object.values(s.labels).join(' ')))).toBe(false);
  });

  it("counts the fleet's conditional GETs: 304 and 200 per route", async () => {
    const before = await scrape(server);
    const future = new Date(Date.now() + 3_600_000).toUTCString();
    const past = new Date(Date.UTC(2000, 0, 1)).toUTCString();
    expect((await admin.get('cdns').set('If-Modified-Since', future)).status).toBe(304);
    expect((await admin.get('cdns').set('If-Modified-Since', past)).status).toBe(200);
    const after = await scrape(server);
    for (const result of ['304', '200']) {
      const labels = { route: '/cdns', result };
      expect(valueOf(after, 'http_conditional_responses_total', labels)).toBe(
        valueOf(before, 'http_conditional_responses_total', labels) + 1,
      );
    }
  });

  it('counts sign-ins by result and change-log writes by resource', async () => {
    const before = await scrape(server);
    const login = (p: string) => request(server).post('/api/4.0/user/login').send({ u: 'admin', p });
    expect((await login('wrong password')).status).toBe(401);
    expect((await login(ADMIN_PASSWORD)).status).toBe(200);
    const name = uniqueName('metrics');
    const created = await admin.post('cdns', {
      name,
      domainName: `${name}.example.net`,
      dnssecEnabled: false,
    });
    expect(created.status).toBe(200);
    expect(
      (await admin.delete(`cdns/${(created.body as { response: { id: number } }).response.id}`)).status,
    ).toBe(200);
    const after = await scrape(server);
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('auth_sign_ins_total', { result: 'failure' })).toBe(1);
    expect(delta('auth_sign_ins_total', { result: 'success' })).toBe(1);
    expect(delta('change_log_writes_total', { resource: 'cdns' })).toBe(2);
  });

  it('is not counted itself, and answers only GET and HEAD', async () => {
    const before = await scrape(server);
    const after = await scrape(server);
    expect(after.filter((s) => s.labels.route === '/metrics')).toEqual([]);
    expect(before.filter((s) => s.labels.route === '/metrics')).toEqual([]);
    expect((await request(server).head('/metrics')).status).toBe(200);
    expect((await request(server).post('/metrics')).status).toBe(404);
  });
});

describe('GET /metrics with METRICS=off', () => {
  it('is not served (404 as any unknown path)', async () => {
    const app = await createTestAppWithEnv({ METRICS: 'off' });
    try {
      const res = await request(app.getHttpServer() as App).get('/metrics');
      expect(res.status).toBe(404);
    } finally {
      await app.close();
    }
  });
});
