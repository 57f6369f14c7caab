import type { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import request from 'supertest';
import type { App } from 'supertest/types';
import { createRootLogger, processLogger, setProcessLogger } from 'src/common/logging/logger';
import { flushTracing, statementTemplate, stopTracing } from 'src/common/tracing/tracing';
import { ApiClient, uniqueName } from 'test/e2e/support/api';
import { createTestApp, createTestAppWithEnv } from 'test/e2e/support/app';
import { OtlpReceiver, type ReceivedSpan } from 'test/e2e/support/otlp-receiver';

const SERVER_KIND = 2;
const CLIENT_KIND = 3;

describe('OpenTelemetry tracing', () => {
  const receiver = new OtlpReceiver();
  const logLines: Record<string, unknown>[] = [];
  const previousLogger = processLogger();
  let app: INestApplication;
  let admin: ApiClient;

  beforeAll(async () => {
    const endpoint = await receiver.start();
    setProcessLogger(
      createRootLogger({
        level: 'info',
        format: 'json',
        destination: new Writable({
          write(chunk: Buffer, _encoding, done) {
            logLines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
            done();
          },
        }),
      }),
    );
    app = await createTestAppWithEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    admin = await ApiClient.admin(app);
  });

  afterAll(async () => {
    await app?.close();
    await stopTracing();
    await receiver.stop();
    setProcessLogger(previousLogger);
  });

  const spansOf = (traceId: string): ReceivedSpan[] => receiver.spans.filter((s) => s.traceId === traceId);

  it('sends a span per request named by its route template, child of the caller traceparent, with statement spans', async () => {
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const name = uniqueName('traced');
    const requestId = `trace-${name}`;
    const res = await admin
      .get(`cdns?name=${name}`)
      .set('traceparent', `00-${traceId}-${parentId}-01`)
      .set('X-Request-Id', requestId);
    expect(res.status).toBe(200);
    await flushTracing();

    const spans = spansOf(traceId);
    const root = spans.find((s) => s.kind === SERVER_KIND);
    expect(root).toMatchObject({
      name: 'GET /cdns',
      parentSpanId: parentId,
      attributes: expect.objectContaining({
        'http.route': '/cdns',
        'http.request.method': 'GET',
        'http.response.status_code': 200,
        'api.version': '4.0',
        'enduser.id': expect.stringMatching(/^\d+$/),
      }),
    });
    const statements = spans.filter((s) => s.kind === CLIENT_KIND && s.parentSpanId === root!.spanId);
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      expect(statement.name).toMatch(/^SELECT /);
      expect(statement.attributes['db.query.text']).toMatch(/^SELECT /);
      expect(statement.attributes['db.system.name']).toMatch(/^(mysql|sqlite)$/);
    }
    expect(statements.some((s) => /\bcdn\b/.test(String(s.attributes['db.query.text'])))).toBe(true);
    // The statement template, never the values.
    expect(JSON.stringify(statements)).not.toContain(name);

    // The request's log line carries the trace id beside the request id.
    const line = logLines.find((l) => l.reqId === requestId);
    expect(line).toMatchObject({ reqId: requestId, traceId, path: '/api/4.0/cdns' });
  });

  it('starts a new trace without a traceparent, and ignores a malformed one', async () => {
    const before = receiver.spans.length;
    const res = await admin.get('cdns').set('traceparent', 'not-a-traceparent');
    expect(res.status).toBe(200);
    await flushTracing();
    const roots = receiver.spans
      .slice(before)
      .filter((s) => s.kind === SERVER_KIND && s.name === 'GET /cdns');
    expect(roots).toHaveLength(1);
    expect(roots[0].parentSpanId ?? '').toBe('');
  });

  it('names unmatched requests without their path, and posts to /v1/traces', async () => {
    const traceId = randomBytes(16).toString('hex');
    const res = await request(app.getHttpServer() as App)
      .get('/api/4.0/no-such-route/42')
      .set('traceparent', `00-${traceId}-${randomBytes(8).toString('hex')}-01`);
    expect(res.status).toBe(404);
    await flushTracing();
    expect(spansOf(traceId).map((s) => s.name)).toEqual(['GET unmatched']);
    expect(new Set(receiver.paths)).toEqual(new Set(['/v1/traces']));
  });
});

describe('statement templates', () => {
  it('replace literal values by ?', () => {
    expect(statementTemplate("SELECT * FROM cdn WHERE name = 'x' AND id = 42 LIMIT 10")).toBe(
      'SELECT * FROM cdn WHERE name = ? AND id = ? LIMIT ?',
    );
    expect(statementTemplate('SELECT `t1`.`c2` FROM `t1` WHERE `a` = ?')).toBe(
      'SELECT `t1`.`c2` FROM `t1` WHERE `a` = ?',
    );
  });
});

describe('tracing off (no OTLP endpoint)', () => {
  it('logs the caller traceparent trace id with the request id all the same', async () => {
    const lines: Record<string, unknown>[] = [];
    const previous = processLogger();
    setProcessLogger(
      createRootLogger({
        level: 'info',
        format: 'json',
        destination: new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
            done();
          },
        }),
      }),
    );
    const app = await createTestApp();
    try {
      const traceId = randomBytes(16).toString('hex');
      const res = await request(app.getHttpServer() as App)
        .get('/api/4.0/ping')
        .set('traceparent', `00-${traceId}-${randomBytes(8).toString('hex')}-01`)
        .set('X-Request-Id', `untraced-${traceId}`);
      expect(res.status).toBe(200);
      expect(lines.find((l) => l.reqId === `untraced-${traceId}`)).toMatchObject({ traceId });
    } finally {
      await app.close();
      setProcessLogger(previous);
    }
  });
});
