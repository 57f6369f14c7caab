import type { CurrentStatsResponse } from 'src/modules/stats/dto/current-stats.response';
import type { INestApplication } from '@nestjs/common';
import { createServer, type Server, type Socket } from 'node:net';
import { DataSource } from 'typeorm';
import { ApiClient, responseOf, uniqueName } from 'test/e2e/support/api';
import { expectApiHeaders } from 'test/e2e/support/headers';
import { createTestAppWithEnv } from 'test/e2e/support/app';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { describeWithInfluxDb, influxQuery, influxWrite } from 'test/e2e/support/influxdb';
import { useApp } from 'test/e2e/support/suite';

const VERSIONS = ['3.0', '3.1', '4.0', '4.1', '5.0'];

/** The CDN names in the database's order (the original's `SELECT name FROM cdn`). */
async function cdnNames(app: INestApplication): Promise<string[]> {
  const rows = await app.get(DataSource).query<{ name: string }[]>('SELECT name FROM cdn ORDER BY id');
  return rows.map((r) => r.name);
}

const nullStats = (names: string[]): CurrentStatsResponse['currentStats'] => [
  ...names.map((cdn) => ({ bandwidth: null, capacity: null, cdn, connections: null })),
  { bandwidth: null, cdn: 'total', connections: null },
];

async function currentStats(client: ApiClient) {
  const res = await client.get('current_stats');
  expect(res.status).toBe(200);
  return res;
}

describe('GET /current_stats', () => {
  describe('without InfluxDB (INFLUXDB_URL unset): null figures', () => {
    const { app, admin, readOnly } = useApp({
      env: { INFLUXDB_URL: undefined },
      users: { readOnly: 'read-only' },
    });

    beforeAll(async () => {
      await createCdn(admin);
    });

    it('lists every CDN, the seeded ALL first, plus the total without capacity', async () => {
      const res = await currentStats(readOnly.client);
      expectApiHeaders(res);
      const names = await cdnNames(app);
      expect(names[0]).toBe('ALL');
      expect(res.body).toEqual({ response: { currentStats: nullStats(names) } });
      const stats = responseOf<CurrentStatsResponse>(res).currentStats;
      expect(Object.keys(stats[0])).toEqual(['bandwidth', 'capacity', 'cdn', 'connections']);
      expect(Object.keys(stats[stats.length - 1])).toEqual(['bandwidth', 'cdn', 'connections']);
    });

    it.each(VERSIONS)('answers on %s', async (version) => {
      const res = await currentStats(readOnly.client.at(version));
      expect(res.body).toEqual({ response: { currentStats: nullStats(await cdnNames(app)) } });
    });
  });

  describe('with an InfluxDB that fails: null figures and a warning (D16)', () => {
    let refused: INestApplication, hanging: INestApplication;
    let silent: Server;
    const sockets: Socket[] = [];

    beforeAll(async () => {
      // A port nothing listens on.
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const closedPort = (probe.address() as { port: number }).port;
      await new Promise((resolve) => probe.close(resolve));
      refused = await createTestAppWithEnv({ INFLUXDB_URL: `http://127.0.0.1:${closedPort}` });
      // A server that accepts connections and never answers.
      silent = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const silentPort = (silent.address() as { port: number }).port;
      hanging = await createTestAppWithEnv({
        INFLUXDB_URL: `http://127.0.0.1:${silentPort}`,
        INFLUXDB_TIMEOUT_MS: '300',
      });
    });

    afterAll(async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => silent.close(resolve));
      await refused.close();
      await hanging.close();
    });

    it('answers 200 when InfluxDB cannot be reached', async () => {
      const res = await currentStats(await ApiClient.admin(refused));
      expectApiHeaders(res);
      expect(res.body).toEqual({
        alerts: [
          { text: 'current statistics are unavailable: InfluxDB could not be reached', level: 'warning' },
        ],
        response: { currentStats: nullStats(await cdnNames(refused)) },
      });
    });

    it('answers 200 when InfluxDB does not answer in time', async () => {
      const started = Date.now();
      const res = await currentStats(await ApiClient.admin(hanging));
      expect(Date.now() - started).toBeLessThan(5000);
      expect(res.body).toEqual({
        alerts: [
          {
            text: 'current statistics are unavailable: InfluxDB did not answer within 300 ms',
            level: 'warning',
          },
        ],
        response: { currentStats: nullStats(await cdnNames(hanging)) },
      });
    });
  });

  describeWithInfluxDb((url) => {
    const database = 'cache_stats';
    let first: { id: number; name: string };
    let second: { id: number; name: string };
    let odd: string;
    const { app, admin } = useApp({
      env: { INFLUXDB_URL: url, INFLUXDB_DATABASE: database },
      beforeClose: async () => {
        await app.get(DataSource).query('DELETE FROM cdn WHERE name = ?', [odd]);
      },
    });

    beforeAll(async () => {
      first = await createCdn(admin);
      second = await createCdn(admin);
      // A name the API would refuse, to prove the InfluxQL string literal is escaped.
      odd = `${uniqueName('odd')}'q"b\\s`;
      await app
        .get(DataSource)
        .query('INSERT INTO cdn (name, domain_name, dnssec_enabled) VALUES (?, ?, 0)', [
          odd,
          `${uniqueName('odd')}.example`,
        ]);

      await influxQuery(url, `CREATE DATABASE ${database}`);
      await influxQuery(url, `CREATE RETENTION POLICY monthly ON ${database} DURATION 30d REPLICATION 1`);
      const now = Math.floor(Date.now() / 1000);
      const tag = (name: string) => name.replace(/[ ,=]/g, (c) => `\\${c}`);
      await influxWrite(url, database, 'monthly', [
        // The first CDN: two bandwidth samples, the later one counts (last()).
        `bandwidth.cdn.1min,cdn=${tag(first.name)} value=1000000 ${now - 120}`,
        `bandwidth.cdn.1min,cdn=${tag(first.name)} value=2500000 ${now - 60}`,
        `connections.cdn.1min,cdn=${tag(first.name)} value=1234 ${now - 60}`,
        `maxkbps.cdn.1min,cdn=${tag(first.name)} value=10000000 ${now - 60}`,
        // The second: no max kbps, so no capacity.
        `bandwidth.cdn.1min,cdn=${tag(second.name)} value=500000 ${now - 60}`,
        `connections.cdn.1min,cdn=${tag(second.name)} value=66 ${now - 60}`,
        `connections.cdn.1min,cdn=${tag(odd)} value=100 ${now - 60}`,
        `maxkbps.cdn.1min,cdn=${tag(odd)} value=2000000 ${now - 60}`,
        // A measurement current_stats does not read.
        `bandwidth.cdn.5min,cdn=${tag(first.name)} value=99 ${now - 60}`,
      ]);
    });

    it('converts kbps to Gbps, gives 85 % of max kbps as capacity, and sums the total', async () => {
      const res = await currentStats(admin);
      expectApiHeaders(res);
      expect(res.body).not.toHaveProperty('alerts');
      const stats = responseOf<CurrentStatsResponse>(res).currentStats;
      const names = await cdnNames(app);
      expect(stats.map((s) => s.cdn)).toEqual([...names, 'total']);
      const byName = (name: string) => stats.find((s) => s.cdn === name);
      expect(byName(first.name)).toEqual({
        bandwidth: 2.5,
        capacity: 8.5,
        cdn: first.name,
        connections: 1234,
      });
      expect(byName(second.name)).toEqual({
        bandwidth: 0.5,
        capacity: null,
        cdn: second.name,
        connections: 66,
      });
      expect(byName(odd)).toEqual({ bandwidth: null, capacity: 1.7, cdn: odd, connections: 100 });
      expect(byName('ALL')).toEqual({ bandwidth: null, capacity: null, cdn: 'ALL', connections: null });
      expect(stats[stats.length - 1]).toEqual({ bandwidth: 3, cdn: 'total', connections: 1400 });
    });

    it.each(VERSIONS)('answers the same figures on %s', async (version) => {
      const stats = responseOf<CurrentStatsResponse>(await currentStats(admin.at(version))).currentStats;
      expect(stats.find((s) => s.cdn === first.name)).toEqual({
        bandwidth: 2.5,
        capacity: 8.5,
        cdn: first.name,
        connections: 1234,
      });
    });

    it('warns, with null figures, when the configured database does not exist', async () => {
      const missing = await createTestAppWithEnv({
        INFLUXDB_URL: url,
        INFLUXDB_DATABASE: 'no_such_database',
      });
      try {
        const res = await currentStats(await ApiClient.admin(missing));
        const body = res.body as { alerts: { text: string; level: string }[]; response: unknown };
        expect(body.alerts).toEqual([
          {
            text: expect.stringMatching(/^current statistics are unavailable: InfluxDB /),
            level: 'warning',
          },
        ]);
        expect(body.response).toEqual({ currentStats: nullStats(await cdnNames(missing)) });
      } finally {
        await missing.close();
      }
    });
  });
});
