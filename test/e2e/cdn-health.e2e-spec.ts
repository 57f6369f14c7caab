import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { uniqueName } from 'test/e2e/support/api';
import { createTenant, createUser } from 'test/e2e/support/accounts';
import { expectErrors } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
} from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';
import type {
  CacheData,
  CapacityData,
  HealthData,
  RoutingData,
} from 'src/modules/monitoring/dto/monitoring.response';

interface Answer<T> {
  response: T;
  alerts?: { text: string; level: string }[];
}

const ZERO_ROUTING: RoutingData = {
  staticRoute: 0,
  geo: 0,
  err: 0,
  fed: 0,
  cz: 0,
  deepCz: 0,
  regionalAlternate: 0,
  dsr: 0,
  miss: 0,
  regionalDenied: 0,
};
const NO_MONITOR = 'no online Traffic Monitor (RASCAL) server was found';

/** A stand-in Traffic Monitor / Traffic Router: answers the JSON documents given by path. */
async function fakeMonitor(
  documents: Record<string, unknown>,
): Promise<{ server: HttpServer; port: number }> {
  const server = createHttpServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (!(path in documents)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(documents[path]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('cdns/health, cdns/{name}/health, cdns/capacity, cdns/routing, caches/stats', () => {
  let db: DataSource;
  const fakes: HttpServer[] = [];
  const placed: number[] = [];
  /** Traffic Monitors and Routers other suites of the run left behind, and their statuses. */
  let parked: { id: number; status: number }[] = [];
  const { app, admin, readOnly } = useApp({
    users: { readOnly: 'read-only' },
    beforeClose: async () => {
      for (const id of placed) {
        await admin.delete(`servers/${id}`);
      }
      for (const fake of fakes) {
        fake.close();
      }
      for (const { id, status } of parked) {
        await db.query('UPDATE server SET status = ? WHERE id = ?', [status, id]);
      }
    },
  });

  /** Points a server at 127.0.0.1:<port> (host `127`, domain `0.0.1`). */
  const pointAt = async (serverId: number, port: number | null) => {
    await db.query('UPDATE server SET host_name = ?, domain_name = ?, tcp_port = ? WHERE id = ?', [
      '127',
      '0.0.1',
      port,
      serverId,
    ]);
    placed.push(serverId);
  };

  beforeAll(async () => {
    db = app.get(DataSource);
    // The routes read every CDN's monitors and routers: set aside (OFFLINE) those of other suites
    // sharing the run's database, so that this suite sees only its own; put back afterwards.
    parked = await db.query(
      'SELECT s.id AS id, s.status AS status FROM server s JOIN type t ON t.id = s.type ' +
        "WHERE t.name IN ('RASCAL', 'CCR')",
    );
    await db.query(
      "UPDATE server SET status = (SELECT id FROM status WHERE name = 'OFFLINE') WHERE id IN " +
        "(SELECT s.id FROM (SELECT s2.id FROM server s2 JOIN type t ON t.id = s2.type WHERE t.name IN ('RASCAL', 'CCR')) s)",
    );
  });

  describe('without a Traffic Monitor or Router', () => {
    it.each(['3.0', '4.0', '5.0'])('answers empty health with a warning on %s', async (version) => {
      const res = expectOk(await readOnly.client.at(version).get('cdns/health'));
      expect(res.body).toEqual({
        alerts: [{ text: NO_MONITOR, level: 'warning' }],
        response: { totalOffline: 0, totalOnline: 0, cachegroups: [] },
      });
    });

    it('answers empty health of one CDN, even an unknown one', async () => {
      const cdn = await createCdn(admin);
      for (const name of [cdn.name, 'no-such-cdn']) {
        const res = await readOnly.client.get(`cdns/${name}/health`);
        expect(res.body).toEqual({
          alerts: [{ text: `${NO_MONITOR} for CDN '${name}'`, level: 'warning' }],
          response: { totalOffline: 0, totalOnline: 0, cachegroups: [] },
        });
      }
    });

    it('answers zero capacity and routing with a warning', async () => {
      expect((await readOnly.client.get('cdns/capacity')).body).toEqual({
        alerts: [{ text: 'no monitors found', level: 'warning' }],
        response: { availablePercent: 0, unavailablePercent: 0, utilizedPercent: 0, maintenancePercent: 0 },
      });
      expect((await readOnly.client.at('5.0').get('cdns/routing')).body).toEqual({
        alerts: [{ text: 'no online Traffic Router (CCR) server was found', level: 'warning' }],
        response: ZERO_ROUTING,
      });
    });

    it('lists the caches as unhealthy without stats, with the totals', async () => {
      const cdn = await createCdn(admin);
      const cachegroup = await createCachegroup(admin);
      const edge = await createServer(admin, cdn.id, {
        cachegroupId: cachegroup.id,
        address: '192.0.2.1/24',
      });
      const profile = `EDGE_${uniqueName('p')}`;
      await db.query('UPDATE profile SET name = ? WHERE name = ?', [profile, edge.profileNames[0]]);
      const res = await readOnly.client.get('caches/stats');
      expect(res.status).toBe(200);
      const body = res.body as Answer<CacheData[]>;
      expect(body.alerts).toEqual([{ text: NO_MONITOR, level: 'warning' }]);
      expect(body.response.find((c) => c.hostname === edge.hostName)).toEqual({
        hostname: edge.hostName,
        cachegroup: cachegroup.name,
        status: 'ONLINE',
        profile,
        ip: '192.0.2.1/24',
        healthy: false,
        kbps: 0,
        connections: 0,
      });
      expect(body.response.find((c) => c.hostname === 'ALL' && c.cachegroup === cachegroup.name)).toEqual({
        hostname: 'ALL',
        cachegroup: cachegroup.name,
        status: 'ALL',
        profile: 'ALL',
        ip: null,
        healthy: true,
        kbps: 0,
        connections: 0,
      });
      expect(body.response.at(-1)).toEqual({
        hostname: 'ALL',
        cachegroup: 'ALL',
        status: 'ALL',
        profile: 'ALL',
        ip: null,
        healthy: true,
        kbps: 0,
        connections: 0,
      });
    });
  });

  describe('with a Traffic Monitor that answers', () => {
    let cdn: { id: number; name: string };
    let edges: { name: string; cachegroup: string }[];
    let ds: { id: number; xmlId: string };

    beforeAll(async () => {
      cdn = await createCdn(admin);
      const cgX = await createCachegroup(admin);
      const cgY = await createCachegroup(admin);
      const profile = `EDGE_${uniqueName('p')}`;
      const made = [
        await createServer(admin, cdn.id, { cachegroupId: cgX.id }),
        await createServer(admin, cdn.id, { cachegroupId: cgX.id }),
        await createServer(admin, cdn.id, { cachegroupId: cgY.id }),
      ];
      for (const server of made) {
        await db.query('UPDATE profile SET name = ? WHERE name = ?', [
          `${profile}${server.id}`,
          server.profileNames[0],
        ]);
      }
      ds = await createDeliveryService(admin, cdn.id);
      const serving = { deliveryServices: { [ds.xmlId]: [`${ds.xmlId}.example.net`] } };
      edges = [
        { name: made[0].hostName, cachegroup: cgX.name },
        { name: made[1].hostName, cachegroup: cgX.name },
        { name: made[2].hostName, cachegroup: cgY.name },
      ];
      const stat = (kbps: number, connections: number) => ({
        interfaces: {},
        stats: {
          kbps: [{ value: kbps, time: 0, span: 1 }],
          maxKbps: [{ value: 1000, time: 0, span: 1 }],
          bandwidth: [{ value: String(kbps), time: 0, span: 1 }],
          'ats.proxy.process.http.current_client_connections': [
            { value: String(connections), time: 0, span: 1 },
          ],
        },
      });
      const monitor = await fakeMonitor({
        '/publish/CrStates': {
          caches: {
            [edges[0].name]: { isAvailable: true },
            [edges[1].name]: { isAvailable: false },
            [edges[2].name]: { isAvailable: true },
            'some-mid': { isAvailable: true },
          },
          deliveryServices: {},
        },
        '/publish/CrConfig': {
          contentServers: {
            [edges[0].name]: { cacheGroup: cgX.name, status: 'REPORTED', type: 'EDGE', profile, ...serving },
            [edges[1].name]: { cacheGroup: cgX.name, status: 'REPORTED', type: 'EDGE', profile },
            [edges[2].name]: {
              cacheGroup: cgY.name,
              status: 'ADMIN_DOWN',
              type: 'EDGE',
              profile,
              ...serving,
            },
            'some-mid': { cacheGroup: 'mids', status: 'REPORTED', type: 'MID', profile },
          },
        },
        '/publish/CacheStatsNew': {
          caches: {
            [edges[0].name]: stat(100, 5),
            [edges[1].name]: stat(50, 2),
            [edges[2].name]: stat(25, 1),
          },
        },
      });
      fakes.push(monitor.server);
      const rascal = await createServer(admin, cdn.id, { typeName: 'RASCAL' });
      await pointAt(rascal.id, monitor.port);
    });

    it('counts the REPORTED edge caches per cache group', async () => {
      const res = expectOk(await readOnly.client.get(`cdns/${cdn.name}/health`));
      expect(res.body).toEqual({
        response: {
          totalOffline: 1,
          totalOnline: 1,
          cachegroups: [{ offline: 1, online: 1, name: edges[0].cachegroup }],
        },
      });
      expect((res.body as Answer<HealthData>).response).toEqual(
        (await readOnly.client.get('cdns/health')).body.response,
      );
    });

    it('computes the capacity from the cache stats', async () => {
      const res = await readOnly.client.get('cdns/capacity');
      expect(res.status).toBe(200);
      const { response, alerts } = res.body as Answer<CapacityData>;
      expect(alerts).toBeUndefined();
      expect(response.utilizedPercent).toBeCloseTo(10000 / 3000, 9);
      expect(response.unavailablePercent).toBeCloseTo(5000 / 3000, 9);
      expect(response.maintenancePercent).toBeCloseTo(2500 / 3000, 9);
      expect(response.availablePercent).toBeCloseTo(((3000 - 175) * 100) / 3000, 9);
    });

    it("computes a delivery service's capacity from the caches serving it (deliveryservices/{id}/capacity)", async () => {
      for (const version of ['4.0', '5.0']) {
        const res = expectOk(await readOnly.client.at(version).get(`deliveryservices/${ds.id}/capacity`));
        const { response, alerts } = res.body as Answer<CapacityData>;
        expect(alerts).toBeUndefined();
        // Edge 0 (REPORTED, available, 100 kbps) and edge 2 (ADMIN_DOWN, 25 kbps), each of 1000.
        expect(response.utilizedPercent).toBeCloseTo(5, 9);
        expect(response.unavailablePercent).toBe(0);
        expect(response.maintenancePercent).toBeCloseTo(1.25, 9);
        expect(response.availablePercent).toBeCloseTo(93.75, 9);
      }
      const unserved = await createDeliveryService(admin, cdn.id);
      expect((await readOnly.client.get(`deliveryservices/${unserved.id}/capacity`)).body).toEqual({
        response: { availablePercent: 0, unavailablePercent: 0, utilizedPercent: 0, maintenancePercent: 0 },
      });
    });

    it("refuses a delivery service's capacity outside the tenancy, for no such one and a bad id", async () => {
      const outsider = await createUser(app, admin, 'read-only', (await createTenant(admin)).id);
      await expectErrors([
        [outsider.client.get(`deliveryservices/${ds.id}/capacity`), 403, 'not authorized on this tenant'],
        [readOnly.client.get('deliveryservices/987654321/capacity'), 404, 'Not Found'],
        [
          readOnly.client.get('deliveryservices/x/capacity'),
          400,
          "getting integer parameters: parameter 'id' not an integer",
        ],
      ]);
    });

    it('adds the health, bandwidth and connections to the caches', async () => {
      const { response, alerts } = (await readOnly.client.get('caches/stats')).body as Answer<CacheData[]>;
      expect(alerts).toBeUndefined();
      const row = (name: string) => response.find((c) => c.hostname === name)!;
      expect(
        [row(edges[0].name), row(edges[1].name), row(edges[2].name)].map((c) => [
          c.healthy,
          c.kbps,
          c.connections,
        ]),
      ).toEqual([
        [true, 100, 5],
        [false, 50, 2],
        [true, 25, 1],
      ]);
      expect(
        response.find((c) => c.hostname === 'ALL' && c.cachegroup === edges[0].cachegroup),
      ).toMatchObject({
        kbps: 150,
        connections: 7,
      });
    });

    it('warns about a CDN whose monitors do not answer', async () => {
      const silent = await createCdn(admin);
      const rascal = await createServer(admin, silent.id, { typeName: 'RASCAL' });
      const closed = await fakeMonitor({});
      closed.server.close();
      await pointAt(rascal.id, closed.port);
      const res = await readOnly.client.get(`cdns/${silent.name}/health`);
      expect(res.body).toEqual({
        alerts: [
          {
            text: `getting health data from all Traffic Monitors failed for CDN '${silent.name}'`,
            level: 'warning',
          },
        ],
        response: { totalOffline: 0, totalOnline: 0, cachegroups: [] },
      });
      await admin.delete(`servers/${rascal.id}`);
    });
  });

  describe('with a Traffic Router that answers', () => {
    it('sums the routing of the DNS and HTTP maps in percent', async () => {
      const cdn = await createCdn(admin);
      const router = await fakeMonitor({
        '/crs/stats': {
          app: {},
          stats: {
            dnsMap: { 'a.example': { czCount: 2, geoCount: 1, missCount: 1 } },
            httpMap: { 'b.example': { czCount: 4, fedCount: 2 } },
          },
        },
      });
      fakes.push(router.server);
      const profile = await createProfile(admin, cdn.id, { type: 'TR_PROFILE' });
      const port = await createParameter(admin, {
        name: 'api.port',
        configFile: 'server.xml',
        value: String(router.port),
      });
      await assignParameter(admin, profile.id, port.id);
      const ccr = await createServer(admin, cdn.id, { typeName: 'CCR', profileName: profile.name });
      await pointAt(ccr.id, null);
      const res = await readOnly.client.get('cdns/routing');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        response: { ...ZERO_ROUTING, cz: 60, geo: 10, miss: 10, fed: 20 },
      });
    });
  });
});
