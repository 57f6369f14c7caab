import express from 'express';
import { PassThrough } from 'node:stream';
import { pinoHttp } from 'pino-http';
import request from 'supertest';
import { responseHeaders } from 'src/common/http/response-headers';
import { pinoHttpOptions } from 'src/config/logging';

/** An app with the production request logging, logging into memory. */
function appLoggingTo(lines: Record<string, unknown>[]) {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    }
  });
  const app = express();
  app.use(responseHeaders('test'));
  app.use(pinoHttp(pinoHttpOptions('log'), stream));
  app.get('/api/4.0/cdns', (req, res) => {
    (req as unknown as { user: object }).user = { id: 7, username: 'alice', tenantId: 3 };
    res.json({ response: [] });
  });
  app.get('/api/4.0/broken', (_req, res) => {
    (res as unknown as { err: Error }).err = new Error('the database went away');
    res.status(500).json({ alerts: [] });
  });
  app.get('/health/live', (_req, res) => res.json({ status: 'ok' }));
  return app;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('request logs', () => {
  it('write one JSON line per request with the request id, user and tenant, and no credentials', async () => {
    const lines: Record<string, unknown>[] = [];
    const res = await request(appLoggingTo(lines))
      .get('/api/4.0/cdns')
      .set('X-Request-Id', 'abc-123')
      .set('Cookie', 'mojolicious=secret-session')
      .set('Authorization', 'Bearer secret-token');
    await settle();
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(lines).toHaveLength(1);
    const [line] = lines as [
      { req: { id: string; headers: Record<string, string> }; [key: string]: unknown },
    ];
    expect(line).toMatchObject({
      level: 30,
      user: 'alice',
      userId: 7,
      tenantId: 3,
      res: { statusCode: 200 },
    });
    expect(line.req.id).toBe('abc-123');
    expect(line.req.headers.cookie).toBe('[redacted]');
    expect(line.req.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(line)).not.toMatch(/secret/);
  });

  it('generate a request id when the client sends none or a strange one', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines);
    const plain = await request(app).get('/api/4.0/cdns');
    const odd = await request(app).get('/api/4.0/cdns').set('X-Request-Id', 'has spaces and {braces}');
    expect(plain.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('log a 5xx once, at error level, with its cause', async () => {
    const lines: Record<string, unknown>[] = [];
    await request(appLoggingTo(lines)).get('/api/4.0/broken');
    await settle();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, err: { message: 'the database went away' } });
  });

  it('leave health probes out', async () => {
    const lines: Record<string, unknown>[] = [];
    await request(appLoggingTo(lines)).get('/health/live');
    await settle();
    expect(lines).toEqual([]);
  });
});
