import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { expectError } from 'test/e2e/support/alerts';
import { expectApiHeaders } from 'test/e2e/support/headers';
import { createTestApp } from 'test/e2e/support/app';
import { useApp } from 'test/e2e/support/suite';

describe('health', () => {
  const { app } = useApp();
  let server: App;

  beforeAll(() => {
    server = app.getHttpServer() as App;
  });

  it.each(['3.0', '4.0', '5.0'])('answers GET /api/%s/ping without a session, unwrapped', async (version) => {
    const res = await request(server).get(`/api/${version}/ping`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ping: 'pong' });
    expectApiHeaders(res);
  });

  it('answers liveness without a session, outside /api', async () => {
    const res = await request(server).get('/health/live');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers readiness when the database answers', async () => {
    const res = await request(server).get('/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up' });
  });

  it('has no versioned health routes', async () => {
    expectError(
      await request(server).get('/api/4.0/health/live'),
      404,
      "The requested path '/api/4.0/health/live' does not exist.",
    );
  });

  describe('without a database', () => {
    let broken: INestApplication;

    beforeAll(async () => {
      broken = await createTestApp();
      await broken.get(DataSource).destroy();
    });

    afterAll(() => broken.close().catch(() => undefined));

    it('answers readiness with 503 and an alert', async () => {
      const res = await request(broken.getHttpServer() as App).get('/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        alerts: [{ text: expect.stringMatching(/^the database is not answering: /), level: 'error' }],
      });
      expect((await request(broken.getHttpServer() as App).get('/health/live')).status).toBe(200);
    });
  });
});
