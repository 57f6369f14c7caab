import request from 'supertest';
import { type Child, freePort, startServer } from 'test/e2e/support/child-process';
import { parseMetrics, valueOf } from 'test/e2e/support/metrics';

/** METRICS_PORT: the metrics on a port of their own, on loopback, and not on the service's port. */
describe('GET /metrics on METRICS_PORT', () => {
  let server: Child;
  let port: number, metricsPort: number;

  beforeAll(async () => {
    metricsPort = await freePort();
    ({ server, port } = await startServer({ env: { LOG_LEVEL: 'warn', METRICS_PORT: String(metricsPort) } }));
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
  }, 60_000);

  it('is served on METRICS_HOST:METRICS_PORT only', async () => {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 3; i++) {
      expect((await request(base).get('/api/4.0/ping')).status).toBe(200);
    }
    expect((await request(base).get('/metrics')).status).toBe(404);
    const res = await request(`http://127.0.0.1:${metricsPort}`).get('/metrics');
    expect(res.status).toBe(200);
    const ping = { route: '/ping', method: 'GET', version: '4.0', status: '2xx' };
    expect(valueOf(parseMetrics(res.text), 'http_requests_total', ping)).toBe(3);
    expect((await request(`http://127.0.0.1:${metricsPort}`).get('/other')).status).toBe(404);
  });
});
