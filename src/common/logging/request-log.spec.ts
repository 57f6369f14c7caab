import { Logger as NestLogger } from '@nestjs/common';
import express from 'express';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import { responseHeaders } from 'src/common/http/response-headers';
import { createRootLogger } from 'src/common/logging/logger';
import { AppLogger } from 'src/common/logging/nest-logger';
import { requestLog } from 'src/common/logging/request-log';

/** An app with the production request logging, logging into memory. */
function appLoggingTo(lines: Record<string, unknown>[], level = 'info') {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    }
  });
  const root = createRootLogger({ level, format: 'json', destination: stream });
  NestLogger.overrideLogger(new AppLogger(root));
  const app = express();
  app.use(responseHeaders('test'));
  app.use(requestLog(root));
  app.post('/api/4.0/user/login', (req, res) => {
    (req as unknown as { user: object }).user = { id: 7, username: 'alice', tenantId: 3 };
    res.json({ alerts: [] });
  });
  app.get('/api/4.0/broken', (_req, res) => {
    (res as unknown as { cause: Error }).cause = new Error('the database went away');
    res.status(500).json({ alerts: [] });
  });
  app.get('/api/4.0/refused', (_req, res) => {
    res.status(400).json({ alerts: [] });
  });
  app.get('/api/9.9/cdns', (_req, res) => {
    (res as unknown as { cause: Error }).cause = new Error('not a server error');
    res.status(501).json({ alerts: [] });
  });
  app.get('/api/4.0/service', (_req, res) => {
    // A service's own log line, through Nest's Logger, while the request is being served.
    setTimeout(() => {
      new NestLogger('CdnsService').warn('something worth a line');
      res.json({});
    }, 1);
  });
  app.get('/health/live', (_req, res) => res.json({ status: 'ok' }));
  return app;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('request logs', () => {
  it('write one JSON line per request with its id, user and tenant, and never a credential', async () => {
    const lines: Record<string, unknown>[] = [];
    const res = await request(appLoggingTo(lines))
      .post('/api/4.0/user/login?x=1')
      .set('X-Request-Id', 'abc-123')
      .set('Cookie', 'mojolicious=secret-session')
      .set('Authorization', 'Bearer secret-token')
      .send({ u: 'alice', p: 'secret-password' });
    await settle();
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(lines).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        msg: 'request',
        reqId: 'abc-123',
        method: 'POST',
        path: '/api/4.0/user/login',
        status: 200,
        ms: expect.any(Number),
        user: 'alice',
        userId: 7,
        tenantId: 3,
      },
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/secret/);
  });

  it('generate a request id when the client sends none or a strange one', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines);
    const plain = await request(app).get('/health/live');
    const odd = await request(app).get('/api/4.0/refused').set('X-Request-Id', 'has spaces and {braces}');
    await settle();
    expect(plain.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines).toEqual([expect.objectContaining({ reqId: odd.headers['x-request-id'] })]);
  });

  it('log a server error once, at error level, with its cause, even when request lines are off', async () => {
    const lines: Record<string, unknown>[] = [];
    await request(appLoggingTo(lines, 'error')).get('/api/4.0/broken');
    await request(appLoggingTo(lines, 'error')).post('/api/4.0/user/login');
    await settle();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      msg: 'request failed',
      status: 500,
      err: {
        type: 'Error',
        message: 'the database went away',
        stack: expect.stringContaining('Error: the database'),
      },
    });
  });

  it('log client errors (4xx, and 501 for an unknown version) as plain requests, without a stack', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines);
    await request(app).get('/api/4.0/refused');
    await request(app).get('/api/9.9/cdns');
    await settle();
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'request', status: 400 }),
      expect.objectContaining({ level: 30, msg: 'request', status: 501 }),
    ]);
    expect(lines.some((line) => 'err' in line)).toBe(false);

    const quiet: Record<string, unknown>[] = [];
    await request(appLoggingTo(quiet, 'warn')).get('/api/9.9/cdns');
    await settle();
    expect(quiet).toEqual([]);
  });

  it("mark a service's own lines with the request's id", async () => {
    const lines: Record<string, unknown>[] = [];
    await request(appLoggingTo(lines)).get('/api/4.0/service').set('X-Request-Id', 'req-42');
    await settle();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        reqId: 'req-42',
        context: 'CdnsService',
        msg: 'something worth a line',
      }),
      expect.objectContaining({ level: 30, reqId: 'req-42', msg: 'request', status: 200 }),
    ]);
  });

  it('leave health probes out', async () => {
    const lines: Record<string, unknown>[] = [];
    await request(appLoggingTo(lines)).get('/health/live');
    await settle();
    expect(lines).toEqual([]);
  });
});
