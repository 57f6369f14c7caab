import { responseOf } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import { createSnapshotWorld, giveParameter, insertTopology, sql } from 'test/e2e/support/fixtures/snapshots';
import type { SnapshotWorld } from 'test/e2e/support/fixtures/snapshots';
import { insertDeliveryServiceRegex } from 'test/e2e/support/fixtures/steering';
import { useApp } from 'test/e2e/support/suite';
import type { MonitoringConfig } from 'src/modules/snapshots/dto/monitoring.response';

const byName = <T extends { name: string }>(list: T[]): T[] =>
  [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

describe('cdns/{name}/configs/monitoring', () => {
  const { app, admin } = useApp();
  let world: SnapshotWorld;

  const monitoring = async (cdnName: string, client = admin): Promise<MonitoringConfig> => {
    const res = await client.get(`cdns/${cdnName}/configs/monitoring`);
    expect(res.status).toBe(200);
    return responseOf<MonitoringConfig>(res);
  };

  beforeAll(async () => {
    world = await createSnapshotWorld(app, admin);
  });

  it('answers the whole configuration of a CDN without a snapshot, computed now', async () => {
    const res = expectOk(await admin.get(`cdns/${world.cdn.name}/configs/monitoring`));
    const doc = responseOf<MonitoringConfig>(res);
    const { edge, mid, monitor, edgeGroup, routerGroup, http, dns } = world;
    const iface = (address: string) => ({
      ipAddresses: [{ address, gateway: null, serviceAddress: true }],
      maxBandwidth: null,
      monitor: true,
      mtu: 1500,
      name: 'eth0',
    });
    const cache = (server: typeof edge, port: number, hashid: string) => ({
      profile: world.edgeProfile.name,
      status: 'ONLINE',
      port,
      cachegroup: edgeGroup.name,
      hostname: server.hostName,
      fqdn: `${server.hostName}.example.net`,
      interfaces: [iface(server.interfaces[0].ipAddresses[0].address)],
      type: server.type,
      hashid,
      deliveryServices: [{ xmlId: dns.xmlId }, { xmlId: http.xmlId }].sort((a, b) =>
        a.xmlId < b.xmlId ? -1 : 1,
      ),
    });
    const caches = [cache(edge, 80, 'edge-hash'), cache(mid, 0, '')].sort((a, b) =>
      a.hostname < b.hostname ? -1 : 1,
    );
    expect(Object.keys(doc)).toEqual([
      'trafficServers',
      'trafficMonitors',
      'cacheGroups',
      'profiles',
      'deliveryServices',
      'config',
      'topologies',
    ]);
    expect(doc.trafficServers).toEqual(caches);
    expect(doc.trafficMonitors).toEqual([
      {
        profile: world.monitorProfile.name,
        status: 'ONLINE',
        port: 0,
        cachegroup: edgeGroup.name,
        hostname: monitor.hostName,
        fqdn: `${monitor.hostName}.example.net`,
        ip: '192.0.2.1',
        ip6: '',
      },
    ]);
    expect(doc.cacheGroups).toEqual(
      byName([
        { name: edgeGroup.name, coordinates: { latitude: 38.9, longitude: -77 } },
        { name: routerGroup.name, coordinates: { latitude: 38.9, longitude: -77 } },
      ]),
    );
    expect(doc.profiles).toEqual(
      byName([
        // The type of a cache profile is that of the first cache (by host name) that has it.
        { name: world.edgeProfile.name, type: caches[0].type, parameters: {} },
        { name: world.routerProfile.name, type: 'CCR', parameters: {} },
      ]),
    );
    const ds = (xmlId: string, type: string) => ({
      xmlId,
      totalTpsThreshold: 0,
      status: 'REPORTED',
      totalKbpsThreshold: 0,
      type,
      topology: '',
      hostRegexes: [`.*\\.${xmlId}\\..*`],
    });
    expect(doc.deliveryServices).toEqual(
      [ds(http.xmlId, 'HTTP'), ds(dns.xmlId, 'DNS')].sort((a, b) => (a.xmlId < b.xmlId ? -1 : 1)),
    );
    expect(doc.config).toEqual({});
    // Topologies belong to no CDN: every one is listed (none unless another suite made some).
    const topologies = (await sql(app, 'SELECT name FROM topology')) as { name: string }[];
    expect(Object.keys(doc.topologies).sort()).toEqual(topologies.map((t) => t.name).sort());
  });

  it('lists caches only in ONLINE, REPORTED or ADMIN_DOWN, and Traffic Monitors in any status', async () => {
    const cdn = await createCdn(admin);
    const group = await createCachegroup(admin);
    const profile = await createProfile(admin, cdn.id);
    const statuses: Record<string, string> = {};
    for (const status of ['ONLINE', 'REPORTED', 'ADMIN_DOWN', 'OFFLINE', 'PRE_PROD']) {
      const server = await createServer(admin, cdn.id, {
        cachegroupId: group.id,
        profileName: profile.name,
        statusName: status,
      });
      statuses[server.hostName] = status;
    }
    const offlineMonitor = await createServer(admin, cdn.id, {
      cachegroupId: group.id,
      profileName: profile.name,
      typeName: 'RASCAL',
      statusName: 'OFFLINE',
    });
    const doc = await monitoring(cdn.name);
    expect(doc.trafficServers.map((s) => s.status).sort()).toEqual(['ADMIN_DOWN', 'ONLINE', 'REPORTED']);
    expect(doc.trafficMonitors.map((m) => [m.hostname, m.status])).toEqual([
      [offlineMonitor.hostName, 'OFFLINE'],
    ]);
  });

  it("gives each profile its rascal.properties parameters (integers as numbers), a server's first profile first", async () => {
    const cdn = await createCdn(admin);
    const first = await createProfile(admin, cdn.id);
    const second = await createProfile(admin, cdn.id);
    await giveParameter(admin, first.id, 'health.threshold.loadavg', 'rascal.properties', '25.0');
    await giveParameter(admin, first.id, 'health.connection.timeout', 'rascal.properties', '2000');
    await giveParameter(admin, second.id, 'health.connection.timeout', 'rascal.properties', '9999');
    await giveParameter(
      admin,
      second.id,
      'health.polling.url',
      'rascal.properties',
      'http://${hostname}/_astats',
    );
    await giveParameter(admin, first.id, 'not.for.monitors', 'records.config', '1');
    const server = await createServer(admin, cdn.id, { profileName: first.name });
    await sql(app, 'INSERT INTO server_profile (server, profile, priority) VALUES (?, ?, 1)', [
      server.id,
      second.id,
    ]);
    const doc = await monitoring(cdn.name);
    const list = `${first.name} ${second.name}`;
    expect(doc.trafficServers.map((s) => s.profile)).toEqual([list]);
    expect(doc.profiles).toEqual([
      {
        name: list,
        type: 'EDGE',
        parameters: {
          'health.connection.timeout': 2000,
          'health.polling.url': 'http://${hostname}/_astats',
          'health.threshold.loadavg': '25.0',
        },
      },
    ]);
  });

  it('gives delivery services their thresholds (kbps from Mbps) and lists only active ones with a HOST_REGEXP', async () => {
    const cdn = await createCdn(admin);
    const ds = await insertDeliveryService(app, cdn.id, { typeName: 'HTTP_LIVE' });
    const topology = await insertTopology(app, []);
    await sql(
      app,
      'UPDATE deliveryservice SET global_max_mbps = 12, global_max_tps = 300, topology = ? WHERE id = ?',
      [topology, ds.id],
    );
    await insertDeliveryServiceRegex(app, ds.id, 'second.example.org', {
      typeName: 'HOST_REGEXP',
      setNumber: 1,
    });
    await insertDeliveryServiceRegex(app, ds.id, `.*\\.${ds.xmlId}\\..*`, { typeName: 'HOST_REGEXP' });
    await insertDeliveryServiceRegex(app, ds.id, '/path', { typeName: 'PATH_REGEXP', setNumber: 2 });
    const noHost = await insertDeliveryService(app, cdn.id);
    await insertDeliveryServiceRegex(app, noHost.id, '/only-a-path', { typeName: 'PATH_REGEXP' });
    const inactive = await insertDeliveryService(app, cdn.id, { active: 'PRIMED' });
    await insertDeliveryServiceRegex(app, inactive.id, `.*\\.${inactive.xmlId}\\..*`, {
      typeName: 'HOST_REGEXP',
    });
    expect((await monitoring(cdn.name)).deliveryServices).toEqual([
      {
        xmlId: ds.xmlId,
        totalTpsThreshold: 300,
        status: 'REPORTED',
        totalKbpsThreshold: 12000,
        type: 'HTTP',
        topology,
        hostRegexes: [`.*\\.${ds.xmlId}\\..*`, 'second.example.org'],
      },
    ]);
  });

  it('lists every topology with its EDGE_LOC cache groups in name order as nodes, null without one', async () => {
    const cdn = await createCdn(admin);
    const mid = await createCachegroup(admin, { typeName: 'MID_LOC' });
    const [second, first] = [await createCachegroup(admin), await createCachegroup(admin)];
    const edges = [first.name, second.name].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const withEdges = await insertTopology(app, [mid.name, edges[1], edges[0]]);
    const midOnly = await insertTopology(app, [mid.name]);
    const ds = await insertDeliveryService(app, cdn.id);
    await sql(app, 'UPDATE deliveryservice SET topology = ? WHERE id = ?', [withEdges, ds.id]);
    for (const name of [world.cdn.name, cdn.name]) {
      expect((await monitoring(name)).topologies).toMatchObject({
        [withEdges]: { nodes: edges },
        [midOnly]: { nodes: null },
      });
    }
  });

  it("takes config from the rascal-config.txt parameters of the CDN's RASCAL… profiles", async () => {
    const cdn = await createCdn(admin);
    const monitorProfile = await admin.post('profiles', {
      name: `RASCAL-${cdn.name}`,
      description: 'tm',
      cdn: cdn.id,
      type: 'TM_PROFILE',
      routingDisabled: false,
    });
    const profileId = responseOf<{ id: number }>(monitorProfile).id;
    await giveParameter(admin, profileId, 'peers.polling.interval', 'rascal-config.txt', '1000');
    await giveParameter(admin, profileId, 'tm.polling.interval', 'rascal-config.txt', `x${cdn.name}`);
    await giveParameter(admin, profileId, 'elsewhere', 'rascal.properties', '5');
    const other = await createProfile(admin, cdn.id);
    await giveParameter(admin, other.id, 'not.rascal', 'rascal-config.txt', `y${cdn.name}`);
    expect((await monitoring(cdn.name)).config).toEqual({
      'peers.polling.interval': 1000,
      'tm.polling.interval': `x${cdn.name}`,
    });
  });

  it('serves the stored copy once a snapshot exists: later changes show only after the next snapshot', async () => {
    const cdn = await createCdn(admin);
    const group = await createCachegroup(admin);
    await createServer(admin, cdn.id, { cachegroupId: group.id });
    expect((await monitoring(cdn.name)).trafficServers).toHaveLength(1);
    await admin.put(`snapshot?cdn=${cdn.name}`).expect(200);
    const stored = await monitoring(cdn.name);
    await createServer(admin, cdn.id, { cachegroupId: group.id });
    expect(await monitoring(cdn.name)).toEqual(stored);
    await admin.put(`snapshot?cdn=${cdn.name}`).expect(200);
    expect((await monitoring(cdn.name)).trafficServers).toHaveLength(2);
  });

  it('answers the same shape on every version, to a read-only user', async () => {
    const readOnly = await createUser(app, admin, 'read-only');
    const current = await monitoring(world.cdn.name);
    for (const version of ['3.0', '4.1', '5.0']) {
      expect(await monitoring(world.cdn.name, readOnly.client.at(version))).toEqual(current);
    }
  });

  it('answers 404 for an unknown CDN', async () => {
    expectError(await admin.get('cdns/no-such-cdn/configs/monitoring'), 404, 'CDN not found');
  });
});
