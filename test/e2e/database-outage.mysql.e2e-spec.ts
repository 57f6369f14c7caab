import type { INestApplication } from '@nestjs/common';
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
