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
    let recovered = false;
    for (let attempt = 0; attempt < 20 && !recovered; attempt++) {
      recovered = (await admin.get('cdns')).status === 200;
      if (!recovered) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(recovered).toBe(true);
    expect(responseOf<unknown[]>(await admin.get(`cdns?name=${name}`))).toEqual([]);
    expect((await admin.post('cdns', body)).status).toBe(200);
  });
});
