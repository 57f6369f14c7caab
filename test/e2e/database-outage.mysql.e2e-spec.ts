import type { INestApplication } from '@nestjs/common';
import type { Test } from 'supertest';
import { DataSource } from 'typeorm';
import { databaseConfigFrom } from 'src/config/database.env';
import { buildTypeOrmOptions } from 'src/database/typeorm-options';
import { ApiClient, responseOf, uniqueName } from 'test/e2e/support/api';
import { createTestApp } from 'test/e2e/support/app';
import { TcpProxy } from 'test/e2e/support/tcp-proxy';

const UNAVAILABLE = 'the database is unavailable; please retry later';
const mysqlUrl = process.env.DATABASE_URL ?? '';

/**
 * The database becomes unreachable while the service runs (through a TCP proxy this test controls,
 * never the machine's shared server), then comes back. MySQL runs only (see jest.config.js): the
 * embedded SQLite database is a file of the process and cannot become unreachable.
 */
describe('database outage (MySQL)', () => {
  let app: INestApplication;
  let proxy: TcpProxy;
  let admin: ApiClient;
  const savedUrl = mysqlUrl;

  beforeAll(async () => {
    const target = new URL(mysqlUrl);
    proxy = new TcpProxy(target.hostname, Number(target.port || 3306));
    await proxy.start();
    target.host = `127.0.0.1:${proxy.port}`;
    process.env.DATABASE_URL = target.toString();
    app = await createTestApp();
    process.env.DATABASE_URL = savedUrl;
    admin = await ApiClient.admin(app);
  });

  afterAll(async () => {
    proxy.restore();
    await app.close();
    await proxy.stop();
  });

  const waitForRecovery = async (): Promise<boolean> => {
    for (let attempt = 0; attempt < 20; attempt++) {
      if ((await admin.get('cdns')).status === 200) {
        return true;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  };

  it('answers 503 with an alert while the database is away, writes nothing, and recovers by itself', async () => {
    const name = uniqueName('outage-cdn');
    const body = { name, domainName: `${name}.example.net`, dnssecEnabled: false };
    expect((await admin.get('cdns')).status).toBe(200);

    proxy.cut();
    for (const res of [await admin.get('cdns'), await admin.post('cdns', body), await admin.get('cdns')]) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ alerts: [{ text: UNAVAILABLE, level: 'error' }] });
    }

    proxy.restore();
    expect(await waitForRecovery()).toBe(true);
    expect(responseOf<unknown[]>(await admin.get(`cdns?name=${name}`))).toEqual([]);
    expect((await admin.post('cdns', body)).status).toBe(200);
  });

  it.each([
    // The change is written; the connection dies before the change-log entry reaches the database.
    ['a CDN, before its change-log entry', 'cdns', 'INSERT INTO `log`'],
    // The cache group row is written; the connection dies before its localization methods.
    ['a cache group, before its second table', 'cachegroups', 'INSERT INTO `cachegroup_localization_method`'],
  ])(
    'a write of %s cut off mid-transaction answers 503 and leaves nothing',
    async (_what, path, statement) => {
      const name = uniqueName('cut');
      const types = responseOf<{ id: number; name: string }[]>(
        await admin.get('types?useInTable=cachegroup'),
      );
      const body =
        path === 'cdns'
          ? { name, domainName: `${name}.example.net`, dnssecEnabled: false }
          : {
              name,
              shortName: name,
              typeId: types.find((t) => t.name === 'EDGE_LOC')!.id,
              localizationMethods: ['CZ'],
            };
      const logCount = async (): Promise<number> =>
        responseOf<unknown[]>(await admin.get('logs?username=admin&limit=-1')).length;
      const logsBefore = await logCount();

      proxy.cutBefore(statement);
      const res = await admin.post(path, body);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ alerts: [{ text: UNAVAILABLE, level: 'error' }] });

      proxy.restore();
      expect(await waitForRecovery()).toBe(true);
      expect(responseOf<unknown[]>(await admin.get(`${path}?name=${name}`))).toEqual([]);
      expect(await logCount()).toBe(logsBefore);
      expect((await admin.post(path, body)).status).toBe(200);
    },
  );
});

/**
 * The database stops answering (the proxy holds every byte) rather than going away: without
 * timeouts every request would wait for ever. With small timeouts: a statement unanswered for
 * DB_QUERY_TIMEOUT_MS and a wait for a connection longer than DB_ACQUIRE_TIMEOUT_MS answer 503, and
 * the service recovers by itself once the database answers again.
 */
describe('database that stops answering (MySQL)', () => {
  const QUERY_TIMEOUT_MS = 2000;
  /** Each test waits out a few timeouts. */
  const TEST_TIMEOUT_MS = 20000;
  const ACQUIRE_TIMEOUT_MS = 500;
  const settings = {
    DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
    DB_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_TIMEOUT_MS),
    DB_POOL_SIZE: '2',
  };
  let app: INestApplication;
  let proxy: TcpProxy;
  let proxiedUrl: string;
  let admin: ApiClient;

  beforeAll(async () => {
    const target = new URL(mysqlUrl);
    proxy = new TcpProxy(target.hostname, Number(target.port || 3306));
    await proxy.start();
    target.host = `127.0.0.1:${proxy.port}`;
    proxiedUrl = target.toString();
    const saved = Object.fromEntries(Object.keys(settings).map((key) => [key, process.env[key]]));
    Object.assign(process.env, settings, { DATABASE_URL: proxiedUrl });
    try {
      app = await createTestApp();
    } finally {
      for (const [key, value] of Object.entries({ ...saved, DATABASE_URL: mysqlUrl })) {
        if (value === undefined) {
          delete process.env[key];
        } else {
          process.env[key] = value;
        }
      }
    }
    admin = await ApiClient.admin(app);
  });

  afterAll(async () => {
    proxy.restore();
    await app.close();
    await proxy.stop();
  });

  const timed = async (req: Test): Promise<{ status: number; body: unknown; ms: number }> => {
    const start = Date.now();
    const res = await req;
    return { status: res.status, body: res.body as unknown, ms: Date.now() - start };
  };
  const unavailable = { status: 503, body: { alerts: [{ text: UNAVAILABLE, level: 'error' }] } };
  /** Both pooled connections open and idle, so that the stall catches them mid-statement. */
  const warmPool = () => Promise.all(Array.from({ length: 6 }, () => admin.get('cdns')));
  const waitForRecovery = async (): Promise<boolean> => {
    for (let attempt = 0; attempt < 40; attempt++) {
      if ((await admin.get('cdns')).status === 200) {
        return true;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  };

  it(
    'answers 503 once a statement goes unanswered for the query timeout, writes nothing, and recovers',
    async () => {
      const name = uniqueName('stall-cdn');
      const body = { name, domainName: `${name}.example.net`, dnssecEnabled: false };
      await warmPool();

      proxy.stall();
      const write = await timed(admin.post('cdns', body));
      const read = await timed(admin.get('cdns'));
      for (const answer of [write, read]) {
        expect({ status: answer.status, body: answer.body }).toEqual(unavailable);
        expect(answer.ms).toBeLessThan(QUERY_TIMEOUT_MS + 1500);
      }

      proxy.restore();
      expect(await waitForRecovery()).toBe(true);
      expect(responseOf<unknown[]>(await admin.get(`cdns?name=${name}`))).toEqual([]);
      expect((await admin.post('cdns', body)).status).toBe(200);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'answers 503 within the acquire timeout when every pooled connection hangs',
    async () => {
      await warmPool();
      proxy.stall();
      // Both connections of the pool (DB_POOL_SIZE=2) wait for answers that do not come…
      const hanging = [timed(admin.get('cdns?limit=1')), timed(admin.get('cdns?limit=2'))];
      while (proxy.heldBack < 2) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // …so the next request finds none, and gives up after the acquire timeout, not the query timeout.
      const waiting = await timed(admin.get('cdns'));
      expect({ status: waiting.status, body: waiting.body }).toEqual(unavailable);
      expect(waiting.ms).toBeGreaterThanOrEqual(ACQUIRE_TIMEOUT_MS - 50);
      expect(waiting.ms).toBeLessThan(QUERY_TIMEOUT_MS - 500);
      for (const answer of await Promise.all(hanging)) {
        expect({ status: answer.status, body: answer.body }).toEqual(unavailable);
      }

      proxy.restore();
      expect(await waitForRecovery()).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'fails a connection attempt to a database that accepts but never answers (start-up)',
    async () => {
      proxy.stall();
      const dataSource = new DataSource(
        buildTypeOrmOptions(databaseConfigFrom({ ...process.env, ...settings, DATABASE_URL: proxiedUrl })),
      );
      const start = Date.now();
      await expect(dataSource.initialize()).rejects.toMatchObject({
        code: expect.stringMatching(/^(ETIMEDOUT|POOL_ACQUIRE_TIMEOUT)$/),
      });
      expect(Date.now() - start).toBeLessThan(ACQUIRE_TIMEOUT_MS + 1500);
      proxy.restore();
    },
    TEST_TIMEOUT_MS,
  );
});
