import { DataSource } from 'typeorm';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { expectError, expectErrors } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import {
  assign,
  createSnapshotWorld,
  giveParameter,
  insertTopology,
  type SnapshotWorld,
  sql,
} from 'test/e2e/support/fixtures/snapshots';
import { insertDeliveryServiceRegex } from 'test/e2e/support/fixtures/steering';
import { useApp } from 'test/e2e/support/suite';
import type {
  CRConfig,
  CRConfigContentServer,
  CRConfigDeliveryService,
} from 'src/modules/snapshots/dto/crconfig.response';
import { packageInfo } from 'src/bootstrap/package-info';

const SOA = { admin: 'traffic_ops', expire: '604800', minimum: '30', refresh: '28800', retry: '7200' };

describe('snapshots (CRConfig)', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let world: SnapshotWorld;

  const fresh = async (cdnName = world.cdn.name, client = admin): Promise<CRConfig> => {
    const res = await client.get(`cdns/${cdnName}/snapshot/new`);
    expect(res.status).toBe(200);
    return responseOf<CRConfig>(res);
  };
  const storedRow = async (cdnName: string) =>
    (await sql(app, 'SELECT cdn, crconfig, monitoring FROM snapshot WHERE cdn = ?', [cdnName])) as {
      cdn: string;
      crconfig: string;
      monitoring: string;
    }[];

  beforeAll(async () => {
    world = await createSnapshotWorld(app, admin);
  });

  describe('GET cdns/{name}/snapshot/new', () => {
    it('answers the whole document of the CDN as it would be taken now', async () => {
      const before = Math.floor(Date.now() / 1000);
      const res = expectOk(await admin.get(`cdns/${world.cdn.name}/snapshot/new`));
      const doc = responseOf<CRConfig>(res);
      const { http, dns, edge, mid, router, monitor, edgeGroup, routerGroup, cdn } = world;
      const domain = cdn.domainName;
      expect(Object.keys(doc)).toEqual([
        'config',
        'contentServers',
        'contentRouters',
        'deliveryServices',
        'edgeLocations',
        'trafficRouterLocations',
        'monitors',
        'stats',
        // Topologies belong to no CDN: other suites' topologies show here once there are any.
        ...(Number(((await sql(app, 'SELECT COUNT(*) AS n FROM topology')) as { n: unknown }[])[0].n) > 0
          ? ['topologies']
          : []),
      ]);
      expect(doc.config).toEqual({ 'dnssec.enabled': 'false', domain_name: domain });
      const dsNames = (host: string): Record<string, string[]> => ({
        [dns.xmlId]: [`cdn.${dns.xmlId}.${domain}`],
        [http.xmlId]: [`${host}.${http.xmlId}.${domain}`],
      });
      expect(doc.contentServers).toEqual({
        [edge.hostName]: {
          cacheGroup: edgeGroup.name,
          fqdn: `${edge.hostName}.example.net`,
          hashCount: 999,
          hashId: 'edge-hash',
          httpsPort: 443,
          interfaceName: 'eth0',
          ip: '192.0.2.1',
          ip6: '',
          locationId: edgeGroup.name,
          port: 80,
          profile: world.edgeProfile.name,
          status: 'ONLINE',
          type: 'EDGE',
          deliveryServices: dsNames(edge.hostName),
          routingDisabled: 0,
        },
        [mid.hostName]: {
          cacheGroup: edgeGroup.name,
          fqdn: `${mid.hostName}.example.net`,
          hashCount: 999,
          hashId: mid.hostName,
          interfaceName: 'eth0',
          ip: '192.0.2.2',
          ip6: '',
          locationId: edgeGroup.name,
          port: null,
          profile: world.edgeProfile.name,
          status: 'ONLINE',
          type: 'MID',
          deliveryServices: dsNames(mid.hostName),
          routingDisabled: 0,
        },
      });
      expect(doc.contentRouters).toEqual({
        [router.hostName]: {
          fqdn: `${router.hostName}.example.net`,
          httpsPort: null,
          ip: '192.0.2.1',
          ip6: '',
          location: routerGroup.name,
          port: 80,
          profile: world.routerProfile.name,
          status: 'ONLINE',
        },
      });
      expect(doc.monitors).toEqual({
        [monitor.hostName]: {
          fqdn: `${monitor.hostName}.example.net`,
          ip: '192.0.2.1',
          ip6: '',
          location: edgeGroup.name,
          profile: world.monitorProfile.name,
          status: 'ONLINE',
        },
      });
      const common = {
        coverageZoneOnly: 'false',
        deepCachingType: 'NEVER',
        ecsEnabled: 'false',
        geolocationProvider: 'maxmindGeolocationService',
        ip6RoutingEnabled: 'false',
        protocol: { acceptHttps: 'false', redirectToHttps: 'false' },
        routingName: 'cdn',
        soa: SOA,
        sslEnabled: 'false',
        ttls: { A: '', AAAA: '', NS: '3600', SOA: '86400' },
      };
      expect(doc.deliveryServices).toEqual({
        [dns.xmlId]: {
          ...common,
          domains: [`${dns.xmlId}.${domain}`],
          matchsets: [
            { protocol: 'DNS', matchlist: [{ regex: `.*\\.${dns.xmlId}\\..*`, 'match-type': 'HOST' }] },
          ],
          maxDnsIpsForLocation: 5,
        },
        [http.xmlId]: {
          anonymousBlockingEnabled: 'false',
          ...common,
          dispersion: { limit: 1, shuffled: 'true' },
          domains: [`${http.xmlId}.${domain}`],
          matchsets: [
            { protocol: 'HTTP', matchlist: [{ regex: `.*\\.${http.xmlId}\\..*`, 'match-type': 'HOST' }] },
          ],
          regionalGeoBlocking: 'false',
        },
      });
      const location = (fallbackToClosest: string) => ({
        latitude: 38.9,
        longitude: -77,
        backupLocations: { fallbackToClosest },
        localizationMethods: ['GEO', 'CZ', 'DEEP_CZ'],
      });
      expect(doc.edgeLocations).toEqual({ [edgeGroup.name]: location('true') });
      expect(doc.trafficRouterLocations).toEqual({ [routerGroup.name]: location('false') });
      expect(doc.stats).toEqual({
        CDN_name: cdn.name,
        date: expect.any(Number) as number,
        tm_host: '',
        tm_user: 'admin',
        tm_version: packageInfo().version,
      });
      expect(doc.stats.date).toBeGreaterThanOrEqual(before);
    });

    it('leaves out servers whose status is not ONLINE, REPORTED or ADMIN_DOWN, and keeps those', async () => {
      const cdn = await createCdn(admin);
      const group = await createCachegroup(admin);
      const profile = await createProfile(admin, cdn.id);
      const hosts: Record<string, string> = {};
      for (const status of ['ONLINE', 'REPORTED', 'ADMIN_DOWN', 'OFFLINE', 'PRE_PROD', 'CCR_IGNORE']) {
        const server = await createServer(admin, cdn.id, {
          cachegroupId: group.id,
          profileName: profile.name,
          statusName: status,
        });
        hosts[server.hostName] = status;
      }
      const doc = await fresh(cdn.name);
      const listed = Object.fromEntries(
        Object.entries(doc.contentServers ?? {}).map(([host, server]) => [host, server.status]),
      );
      expect(Object.values(listed).sort()).toEqual(['ADMIN_DOWN', 'ONLINE', 'REPORTED']);
      for (const [host, status] of Object.entries(listed)) {
        expect(hosts[host]).toBe(status);
      }
    });

    it('lists only EDGE… and MID… servers as content servers (CCR as routers, RASCAL as monitors, others nowhere)', async () => {
      const cdn = await createCdn(admin);
      const group = await createCachegroup(admin);
      const profile = await createProfile(admin, cdn.id);
      const other = await createServer(admin, cdn.id, {
        cachegroupId: group.id,
        profileName: profile.name,
        typeName: 'TRAFFIC_STATS',
      });
      const edge = await createServer(admin, cdn.id, { cachegroupId: group.id, profileName: profile.name });
      const doc = await fresh(cdn.name);
      expect(Object.keys(doc.contentServers ?? {})).toEqual([edge.hostName]);
      expect(JSON.stringify(doc)).not.toContain(other.hostName);
      expect(doc).not.toHaveProperty('contentRouters');
      expect(doc).not.toHaveProperty('monitors');
      expect(doc).not.toHaveProperty('trafficRouterLocations');
    });

    it('gives a server the delivery services assigned to it that are active, not ANY_MAP and not topology-based', async () => {
      const { cdn, edge } = world;
      const inactive = await insertDeliveryService(app, cdn.id, { active: 'INACTIVE' });
      const anyMap = await insertDeliveryService(app, cdn.id, { typeName: 'ANY_MAP' });
      const topology = await insertDeliveryService(app, cdn.id);
      const topologyName = await insertTopology(app, []);
      await sql(app, 'UPDATE deliveryservice SET topology = ? WHERE id = ?', [topologyName, topology.id]);
      const unassigned = await insertDeliveryService(app, cdn.id);
      for (const ds of [inactive, anyMap, topology, unassigned]) {
        await insertDeliveryServiceRegex(app, ds.id, `.*\\.${ds.xmlId}\\..*`, { typeName: 'HOST_REGEXP' });
      }
      await assign(app, inactive.id, [edge.id]);
      await assign(app, anyMap.id, [edge.id]);
      await assign(app, topology.id, [edge.id]);
      const doc = await fresh();
      expect(Object.keys(doc.contentServers![edge.hostName].deliveryServices ?? {}).sort()).toEqual(
        [world.dns.xmlId, world.http.xmlId].sort(),
      );
      expect(doc.deliveryServices).not.toHaveProperty(inactive.xmlId);
      expect(doc.deliveryServices).not.toHaveProperty(anyMap.xmlId);
      expect(doc.deliveryServices![topology.xmlId].topology).toBe(topologyName);
      expect(doc.deliveryServices![unassigned.xmlId]).toBeDefined();
      expect(doc.deliveryServices![unassigned.xmlId]).not.toHaveProperty('topology');
    });

    it('names a delivery service per HOST_REGEXP: the host for HTTP, the routing name for DNS, a plain pattern as it is', async () => {
      const { cdn } = world;
      const group = await createCachegroup(admin);
      const profile = await createProfile(admin, cdn.id);
      const edge = await createServer(admin, cdn.id, { cachegroupId: group.id, profileName: profile.name });
      const ds = await insertDeliveryService(app, cdn.id);
      await insertDeliveryServiceRegex(app, ds.id, `.*\\.${ds.xmlId}\\..*`, { typeName: 'HOST_REGEXP' });
      await insertDeliveryServiceRegex(app, ds.id, 'plain.example.org', {
        typeName: 'HOST_REGEXP',
        setNumber: 1,
      });
      const dnsDs = await insertDeliveryService(app, cdn.id, { typeName: 'DNS_LIVE' });
      await sql(app, "UPDATE deliveryservice SET routing_name = 'edge' WHERE id = ?", [dnsDs.id]);
      await insertDeliveryServiceRegex(app, dnsDs.id, `.*\\.${dnsDs.xmlId}\\..*`, {
        typeName: 'HOST_REGEXP',
      });
      await assign(app, ds.id, [edge.id]);
      await assign(app, dnsDs.id, [edge.id]);
      const doc = await fresh();
      expect(doc.contentServers![edge.hostName].deliveryServices).toEqual({
        [dnsDs.xmlId]: [`edge.${dnsDs.xmlId}.${cdn.domainName}`],
        [ds.xmlId]: [`${edge.hostName}.${ds.xmlId}.${cdn.domainName}`, 'plain.example.org'],
      });
    });

    it('gives no delivery services to a server whose profile is routing-disabled, and says so', async () => {
      const { cdn } = world;
      const group = await createCachegroup(admin);
      const profile = await createProfile(admin, cdn.id);
      await sql(app, 'UPDATE profile SET routing_disabled = 1 WHERE id = ?', [profile.id]);
      const edge = await createServer(admin, cdn.id, { cachegroupId: group.id, profileName: profile.name });
      await assign(app, world.http.id, [edge.id]);
      const server: CRConfigContentServer = (await fresh()).contentServers![edge.hostName];
      expect(server.routingDisabled).toBe(1);
      expect(server).not.toHaveProperty('deliveryServices');
    });

    it('makes one match set per regex in set-number order, null for a regex type Traffic Router does not match', async () => {
      const { cdn } = world;
      const ds = await insertDeliveryService(app, cdn.id);
      await insertDeliveryServiceRegex(app, ds.id, '/path/.*', { typeName: 'PATH_REGEXP', setNumber: 2 });
      await insertDeliveryServiceRegex(app, ds.id, 'X-Header', { typeName: 'HEADER_REGEXP', setNumber: 3 });
      await insertDeliveryServiceRegex(app, ds.id, 'steer', { typeName: 'STEERING_REGEXP', setNumber: 1 });
      await insertDeliveryServiceRegex(app, ds.id, `.*\\.${ds.xmlId}\\..*`, { typeName: 'HOST_REGEXP' });
      const doc = await fresh();
      expect(doc.deliveryServices![ds.xmlId].matchsets).toEqual([
        { protocol: 'HTTP', matchlist: [{ regex: `.*\\.${ds.xmlId}\\..*`, 'match-type': 'HOST' }] },
        null,
        { protocol: 'HTTP', matchlist: [{ regex: '/path/.*', 'match-type': 'PATH' }] },
        { protocol: 'HTTP', matchlist: [{ regex: 'X-Header', 'match-type': 'HEADER' }] },
      ]);
      expect(doc.deliveryServices![ds.xmlId].domains).toEqual([`${ds.xmlId}.${cdn.domainName}`]);
    });

    it('gives an HTTP delivery service its dispersion (shuffled) and bypass, a DNS one its bypass and no dispersion', async () => {
      const { cdn } = world;
      const httpDs = await insertDeliveryService(app, cdn.id);
      await sql(
        app,
        "UPDATE deliveryservice SET initial_dispersion = 3, http_bypass_fqdn = 'bypass.example.org:8080', " +
          "geo_limit = 2, geo_limit_countries = 'US, CA', geolimit_redirect_url = 'http://r.example.org/', " +
          'protocol = 3, ccr_dns_ttl = 30, tr_response_headers = \'X-A: "1"__RETURN__X-B:two\', ' +
          "tr_request_headers = 'X-Req__RETURN__X-Other', consistent_hash_regex = '/a/(.*)', " +
          'anonymous_blocking_enabled = 1, regional_geo_blocking = 1, miss_lat = 1.5, miss_long = -2.5, ' +
          "ecs_enabled = 1, ipv6_routing_enabled = 1, deep_caching_type = 'ALWAYS' WHERE id = ?",
        [httpDs.id],
      );
      await sql(
        app,
        "INSERT INTO deliveryservice_consistent_hash_query_param (deliveryservice_id, name) VALUES (?, 'b'), (?, 'a')",
        [httpDs.id, httpDs.id],
      );
      const dnsDs = await insertDeliveryService(app, cdn.id, { typeName: 'DNS' });
      await sql(
        app,
        "UPDATE deliveryservice SET initial_dispersion = 3, dns_bypass_ip = '192.0.2.9', dns_bypass_ttl = 60, " +
          "dns_bypass_cname = 'other.example.org', geo_limit = 1, protocol = 1, max_dns_answers = NULL WHERE id = ?",
        [dnsDs.id],
      );
      const doc = await fresh();
      const httpEntry: CRConfigDeliveryService = doc.deliveryServices![httpDs.xmlId];
      expect(httpEntry).toEqual({
        anonymousBlockingEnabled: 'true',
        bypassDestination: { HTTP: { fqdn: 'bypass.example.org', port: '8080' } },
        consistentHashQueryParams: ['a', 'b'],
        consistentHashRegex: '/a/(.*)',
        coverageZoneOnly: 'false',
        deepCachingType: 'ALWAYS',
        dispersion: { limit: 3, shuffled: 'true' },
        ecsEnabled: 'true',
        geoEnabled: [{ countryCode: 'US' }, { countryCode: 'CA' }],
        geoLimitRedirectURL: 'http://r.example.org/',
        geolocationProvider: 'maxmindGeolocationService',
        ip6RoutingEnabled: 'true',
        missLocation: { lat: 1.5, long: -2.5 },
        protocol: { acceptHttps: 'true', redirectToHttps: 'true' },
        regionalGeoBlocking: 'true',
        requestHeaders: ['X-Req', 'X-Other'],
        responseHeaders: { 'X-A': '1', 'X-B': 'two' },
        routingName: 'cdn',
        soa: SOA,
        sslEnabled: 'true',
        ttl: 30,
        ttls: { A: '30', AAAA: '30', NS: '3600', SOA: '86400' },
      });
      expect(doc.deliveryServices![dnsDs.xmlId]).toEqual({
        bypassDestination: { DNS: { ip: '192.0.2.9', cname: 'other.example.org', ttl: 60 } },
        coverageZoneOnly: 'true',
        deepCachingType: 'NEVER',
        ecsEnabled: 'false',
        geolocationProvider: 'maxmindGeolocationService',
        ip6RoutingEnabled: 'false',
        protocol: { acceptHttp: 'false', acceptHttps: 'true', redirectToHttps: 'false' },
        routingName: 'cdn',
        soa: SOA,
        sslEnabled: 'true',
        ttls: { A: '', AAAA: '', NS: '3600', SOA: '86400' },
      });
    });

    it("caps every TTL at the CDN's ttlOverride", async () => {
      const cdn = await createCdn(admin);
      await sql(app, 'UPDATE cdn SET ttl_override = 20 WHERE id = ?', [cdn.id]);
      const ds = await insertDeliveryService(app, cdn.id, { typeName: 'DNS' });
      await sql(app, 'UPDATE deliveryservice SET ccr_dns_ttl = 300, dns_bypass_ttl = 10 WHERE id = ?', [
        ds.id,
      ]);
      const entry = (await fresh(cdn.name)).deliveryServices![ds.xmlId];
      expect(entry.ttl).toBe(20);
      expect(entry.ttls).toEqual({ A: '20', AAAA: '20', NS: '20', SOA: '20' });
      expect(entry.soa).toEqual({
        admin: 'traffic_ops',
        expire: '20',
        minimum: '20',
        refresh: '20',
        retry: '20',
      });
      expect(entry.bypassDestination).toEqual({ DNS: { ttl: 10 } });
    });

    it("takes config from the CRConfig.json parameters of the routers' profiles (soa, ttls, headers, overrides)", async () => {
      const cdn = await createCdn(admin);
      const group = await createCachegroup(admin, { typeName: 'TR_LOC' });
      const profile = await createProfile(admin, cdn.id, { type: 'TR_PROFILE' });
      await createServer(admin, cdn.id, {
        cachegroupId: group.id,
        profileName: profile.name,
        typeName: 'CCR',
      });
      const edgeProfile = await createProfile(admin, cdn.id);
      await createServer(admin, cdn.id, { profileName: edgeProfile.name });
      const suffix = uniqueName('v');
      await giveParameter(admin, profile.id, 'tld.soa.admin', 'CRConfig.json', `admin-${suffix}`);
      await giveParameter(admin, profile.id, 'tld.ttls.NS', 'CRConfig.json', '3600');
      await giveParameter(
        admin,
        profile.id,
        'LogRequestHeaders',
        'CRConfig.json',
        `X-A__RETURN__ X-B-${suffix}`,
      );
      await giveParameter(
        admin,
        profile.id,
        'maxmind.default.override',
        'CRConfig.json',
        `US;37.7,-122.${suffix.length}`,
      );
      await giveParameter(admin, profile.id, 'maxmind.default.override', 'CRConfig.json', `bad-${suffix}`);
      await giveParameter(
        admin,
        profile.id,
        'geolocation.polling.url',
        'CRConfig.json',
        `http://geo/${suffix}`,
      );
      await giveParameter(admin, profile.id, 'not.in.config', 'other.config', suffix);
      await giveParameter(admin, edgeProfile.id, 'on.an.edge', 'CRConfig.json', suffix);
      const doc = await fresh(cdn.name);
      expect(doc.config).toEqual({
        'dnssec.enabled': 'false',
        domain_name: `${cdn.name}.example.net`,
        'geolocation.polling.url': `http://geo/${suffix}`,
        maxmindDefaultOverride: [{ countryCode: 'US', lat: 37.7, long: Number(`-122.${suffix.length}`) }],
        requestHeaders: ['X-A', `X-B-${suffix}`],
        soa: { admin: `admin-${suffix}` },
        ttls: { NS: '3600' },
      });
      expect(Object.keys(doc.config!)).toEqual(Object.keys(doc.config!).sort());
    });

    it('uses weight and weightMultiplier for hashCount, api.port for routers, and the defaults when missing', async () => {
      const cdn = await createCdn(admin);
      const weighted = await createProfile(admin, cdn.id);
      await giveParameter(admin, weighted.id, 'weight', 'CRConfig.json', '0.5');
      await giveParameter(admin, weighted.id, 'weightMultiplier', 'CRConfig.json', '100');
      const plain = await createProfile(admin, cdn.id);
      const heavy = await createServer(admin, cdn.id, { profileName: weighted.name });
      const normal = await createServer(admin, cdn.id, { profileName: plain.name });
      const routerProfile = await createProfile(admin, cdn.id, { type: 'TR_PROFILE' });
      await giveParameter(admin, routerProfile.id, 'api.port', 'server.xml', '3333');
      await giveParameter(admin, routerProfile.id, 'secure.api.port', 'server.xml', '4443');
      const router = await createServer(admin, cdn.id, { profileName: routerProfile.name, typeName: 'CCR' });
      const doc = await fresh(cdn.name);
      expect(doc.contentServers![heavy.hostName].hashCount).toBe(50);
      expect(doc.contentServers![normal.hostName].hashCount).toBe(999);
      expect(doc.contentRouters![router.hostName]).toMatchObject({
        'api.port': '3333',
        'secure.api.port': '4443',
      });
    });

    it('gives edge locations their fallbacks and localization methods', async () => {
      const cdn = await createCdn(admin);
      const backup = await createCachegroup(admin);
      const main = await createCachegroup(admin);
      await sql(app, 'UPDATE cachegroup SET fallback_to_closest = 0 WHERE id = ?', [main.id]);
      await sql(app, 'INSERT INTO cachegroup_fallbacks (primary_cg, backup_cg, set_order) VALUES (?, ?, 1)', [
        main.id,
        backup.id,
      ]);
      await sql(app, "INSERT INTO cachegroup_localization_method (cachegroup, method) VALUES (?, 'CZ')", [
        main.id,
      ]);
      await createServer(admin, cdn.id, { cachegroupId: main.id });
      const doc = await fresh(cdn.name);
      expect(doc.edgeLocations).toEqual({
        [main.name]: {
          latitude: 38.9,
          longitude: -77,
          backupLocations: { fallbackToClosest: 'false', list: [backup.name] },
          localizationMethods: ['CZ'],
        },
      });
    });

    it('names the Traffic Ops host from the global tm.url parameter', async () => {
      const cdn = await createCdn(admin);
      const existing = (await sql(
        app,
        "SELECT id FROM parameter WHERE name = 'tm.url' AND config_file = 'global'",
      )) as unknown[];
      expect(existing).toEqual([]);
      const parameter = await admin.post('parameters', {
        name: 'tm.url',
        configFile: 'global',
        value: 'https://to.example.org:8443/',
        secure: false,
      });
      expect(parameter.status).toBe(200);
      try {
        expect((await fresh(cdn.name)).stats.tm_host).toBe('to.example.org:8443');
      } finally {
        await admin.delete(`parameters/${responseOf<{ id: number }>(parameter).id}`);
      }
    });

    it('adds tm_path /tools/write_crconfig/<cdn> before API 4.0', async () => {
      const doc = await fresh(world.cdn.name, admin.at('3.0'));
      expect(doc.stats.tm_path).toBe(`/tools/write_crconfig/${world.cdn.name}`);
      expect(Object.keys(doc.stats)).toEqual([
        'CDN_name',
        'date',
        'tm_host',
        'tm_path',
        'tm_user',
        'tm_version',
      ]);
      expect((await fresh(world.cdn.name, admin.at('5.0'))).stats).not.toHaveProperty('tm_path');
    });

    it('lists every topology with its EDGE_LOC cache groups in name order as nodes, null without one', async () => {
      const other = await createCdn(admin);
      const mid = await createCachegroup(admin, { typeName: 'MID_LOC' });
      const [second, first] = [await createCachegroup(admin), await createCachegroup(admin)];
      const edges = [first.name, second.name].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const withEdges = await insertTopology(app, [mid.name, edges[1], edges[0]]);
      const midOnly = await insertTopology(app, [mid.name]);
      const unused = await insertTopology(app, [edges[0]]);
      const ds = await insertDeliveryService(app, other.id);
      await sql(app, 'UPDATE deliveryservice SET topology = ? WHERE id = ?', [withEdges, ds.id]);
      for (const doc of [await fresh(), await fresh(other.name)]) {
        expect(doc.topologies).toMatchObject({
          [withEdges]: { nodes: edges },
          [midOnly]: { nodes: null },
          [unused]: { nodes: [edges[0]] },
        });
        expect(Object.keys(doc)).toEqual([
          ...Object.keys(doc).filter((key) => key !== 'stats' && key !== 'topologies'),
          'stats',
          'topologies',
        ]);
      }
    });

    it('gives a topology-based delivery service its topology and no names on any server, even those of its cache groups', async () => {
      const { cdn, edge, mid, edgeGroup } = world;
      const topology = await insertTopology(app, [edgeGroup.name]);
      const ds = await insertDeliveryService(app, cdn.id);
      await sql(app, 'UPDATE deliveryservice SET topology = ? WHERE id = ?', [topology, ds.id]);
      await insertDeliveryServiceRegex(app, ds.id, `.*\\.${ds.xmlId}\\..*`, { typeName: 'HOST_REGEXP' });
      await assign(app, ds.id, [edge.id]);
      const doc = await fresh();
      expect(doc.deliveryServices![ds.xmlId].topology).toBe(topology);
      for (const server of [edge, mid]) {
        expect(doc.contentServers![server.hostName].deliveryServices).not.toHaveProperty(ds.xmlId);
      }
      expect(doc.contentServers![edge.hostName].deliveryServices).toHaveProperty(world.http.xmlId);
    });

    it('answers the document to a read-only user, and 404 for an unknown CDN (D71)', async () => {
      await fresh(world.cdn.name, readOnly.client);
      expectError(await admin.get('cdns/no-such-cdn/snapshot/new'), 404, 'CDN not found');
    });
  });

  describe('PUT snapshot and GET cdns/{name}/snapshot', () => {
    it('answers {"stats": {}} before any snapshot, 404 for an unknown CDN', async () => {
      const cdn = await createCdn(admin);
      const res = expectOk(await admin.get(`cdns/${cdn.name}/snapshot`));
      expect(res.body).toEqual({ response: { stats: {} } });
      expect(responseOf(await admin.at('3.1').get(`cdns/${cdn.name}/snapshot`))).toEqual({
        stats: { tm_path: `/api/4.0/cdns/${cdn.name}/snapshot` },
      });
      expectError(await admin.get('cdns/no-such-cdn/snapshot'), 404, 'CDN not found');
    });

    it('takes a snapshot by name: stored, served as taken, not changed by later edits until the next one', async () => {
      const cdn = await createCdn(admin);
      await createServer(admin, cdn.id);
      const res = expectOk(await admin.put(`snapshot?cdn=${cdn.name}`));
      expect(res.body).toEqual({ response: 'SUCCESS' });
      const stored = responseOf<CRConfig>(await admin.get(`cdns/${cdn.name}/snapshot`));
      const [row] = await storedRow(cdn.name);
      expect(JSON.parse(row.crconfig)).toEqual(stored);
      expect(Object.keys(stored.contentServers ?? {})).toHaveLength(1);
      expect(stored.stats).not.toHaveProperty('tm_path');

      await createServer(admin, cdn.id);
      expect(responseOf<CRConfig>(await admin.get(`cdns/${cdn.name}/snapshot`))).toEqual(stored);
      expect(Object.keys((await fresh(cdn.name)).contentServers ?? {})).toHaveLength(2);

      expect((await admin.put(`snapshot?cdnID=${cdn.id}`)).body).toEqual({ response: 'SUCCESS' });
      const retaken = responseOf<CRConfig>(await admin.get(`cdns/${cdn.name}/snapshot`));
      expect(Object.keys(retaken.contentServers ?? {})).toHaveLength(2);
      expect(await storedRow(cdn.name)).toHaveLength(1);
      const old = responseOf<CRConfig>(await admin.at('3.0').get(`cdns/${cdn.name}/snapshot`));
      expect(old.stats.tm_path).toBe(`/api/4.0/cdns/${cdn.name}/snapshot`);
    });

    it('stores the monitoring configuration with the CRConfig, in the same write', async () => {
      const cdn = await createCdn(admin);
      await createServer(admin, cdn.id);
      await admin.put(`snapshot?cdn=${cdn.name}`).expect(200);
      const [row] = await storedRow(cdn.name);
      const served = await admin.get(`cdns/${cdn.name}/configs/monitoring`);
      expect(responseOf(served)).toEqual(JSON.parse(row.monitoring));
    });

    it('records the snapshot in the change log', async () => {
      const cdn = await createCdn(admin);
      await admin.put(`snapshot?cdn=${cdn.name}`).expect(200);
      const logs = (await sql(app, 'SELECT message FROM log WHERE message LIKE ?', [
        `%snapshot?cdn=${cdn.name}%`,
      ])) as {
        message: string;
      }[];
      expect(logs.map((l) => l.message)).toEqual([`PUT /snapshot?cdn=${cdn.name}`]);
    });

    it('goes away with its CDN and follows its renames', async () => {
      const cdn = await createCdn(admin);
      await admin.put(`snapshot?cdn=${cdn.name}`).expect(200);
      const renamed = uniqueName('cdn');
      await admin
        .put(`cdns/${cdn.id}`, { name: renamed, domainName: `${cdn.name}.example.net`, dnssecEnabled: false })
        .expect(200);
      expect((await storedRow(renamed)).map((r) => r.cdn)).toEqual([renamed]);
      await admin.delete(`cdns/${cdn.id}`).expect(200);
      expect(await storedRow(renamed)).toEqual([]);
    });

    it('answers the original errors for a missing or unknown CDN and bad ids, writing nothing', async () => {
      const cdn = await createCdn(admin);
      await expectErrors([
        [admin.put('snapshot'), 400, 'CDN must be identified via the query parameter cdn or cdnID'],
        [admin.put('snapshot?cdn=no-such-cdn'), 404, 'No CDN ID found with that name'],
        [admin.put('snapshot?cdnID=999999'), 404, 'No CDN found with that ID'],
        [
          admin.put('snapshot?cdnID=abc'),
          400,
          "getting integer parameters: parameter 'cdnID' not an integer",
        ],
        [
          admin.put(`snapshot?cdn=${cdn.name}&id=x`),
          400,
          "getting integer parameters: parameter 'id' not an integer",
        ],
      ]);
      expect(await storedRow(cdn.name)).toEqual([]);
    });

    it('answers 412 to a precondition on ?cdn= when the snapshot was taken since, and replaces nothing (D74)', async () => {
      const cdn = await createCdn(admin);
      await admin.put(`snapshot?cdn=${cdn.name}`).expect(200);
      const [before] = await storedRow(cdn.name);
      const past = new Date(Date.now() - 3_600_000).toUTCString();
      expectError(
        await admin.put(`snapshot?cdn=${cdn.name}`).set('If-Unmodified-Since', past),
        412,
        'resource was modified since the time specified by the request headers',
      );
      expect((await storedRow(cdn.name))[0]).toEqual(before);
      const future = new Date(Date.now() + 3_600_000).toUTCString();
      await admin.put(`snapshot?cdn=${cdn.name}`).set('If-Unmodified-Since', future).expect(200);
      const fresh = await createCdn(admin);
      await admin.put(`snapshot?cdn=${fresh.name}`).set('If-Unmodified-Since', past).expect(200);
    });

    it('lets a read-only user read snapshots', async () => {
      expect((await readOnly.client.get(`cdns/${world.cdn.name}/snapshot`)).status).toBe(200);
    });

    it('has no pending-snapshot flag to clear: a snapshot changes neither the CDN nor its servers (D73)', async () => {
      const cdn = await createCdn(admin);
      const server = await createServer(admin, cdn.id);
      const before = responseOf(await admin.get(`cdns?id=${cdn.id}`));
      const serverBefore = responseOf(await admin.get(`servers?id=${server.id}`));
      await admin.put(`snapshot?cdn=${cdn.name}`).expect(200);
      expect(responseOf(await admin.get(`cdns?id=${cdn.id}`))).toEqual(before);
      expect(responseOf(await admin.get(`servers?id=${server.id}`))).toEqual(serverBefore);
    });
  });

  describe('speed', () => {
    it('computes a CDN of 1,000 servers, 300 delivery services and 50 cache groups in a fixed number of queries', async () => {
      const cdn = await createCdn(admin);
      const profile = await createProfile(admin, cdn.id);
      const physLocation = (
        (await sql(app, 'SELECT id FROM phys_location ORDER BY id LIMIT 1')) as { id: number }[]
      )[0];
      const types = (await sql(
        app,
        "SELECT id, name FROM type WHERE name IN ('EDGE', 'EDGE_LOC', 'HTTP', 'HOST_REGEXP')",
      )) as {
        id: number;
        name: string;
      }[];
      const typeId = (name: string) => Number(types.find((t) => t.name === name)!.id);
      const status = ((await sql(app, "SELECT id FROM status WHERE name = 'ONLINE'")) as { id: number }[])[0];
      const prefix = uniqueName('big').toLowerCase();
      const groups: number[] = [];
      for (let g = 0; g < 50; g++) {
        await sql(
          app,
          'INSERT INTO cachegroup (name, short_name, latitude, longitude, type) VALUES (?, ?, 1, 2, ?)',
          [`${prefix}-cg${g}`, `${prefix}-cg${g}`, typeId('EDGE_LOC')],
        );
      }
      for (const row of (await sql(app, 'SELECT id FROM cachegroup WHERE name LIKE ?', [
        `${prefix}-cg%`,
      ])) as { id: number }[]) {
        groups.push(Number(row.id));
      }
      for (let s = 0; s < 1000; s += 100) {
        const values: unknown[] = [];
        const rowsSql: string[] = [];
        for (let i = s; i < s + 100; i++) {
          rowsSql.push('(?, ?, ?, ?, ?, ?, ?, ?)');
          values.push(
            `${prefix}-s${i}`,
            'example.net',
            Number(physLocation.id),
            groups[i % 50],
            typeId('EDGE'),
            Number(status.id),
            cdn.id,
            80,
          );
        }
        await sql(
          app,
          `INSERT INTO server (host_name, domain_name, phys_location, cachegroup, type, status, cdn_id, tcp_port) VALUES ${rowsSql.join(', ')}`,
          values,
        );
      }
      await sql(
        app,
        'INSERT INTO server_profile (server, profile, priority) SELECT s.id, ?, 0 FROM server s WHERE s.host_name LIKE ?',
        [profile.id, `${prefix}-s%`],
      );
      await sql(
        app,
        "INSERT INTO interface (server, name, monitor) SELECT s.id, 'eth0', 1 FROM server s WHERE s.host_name LIKE ?",
        [`${prefix}-s%`],
      );
      await sql(
        app,
        "INSERT INTO ip_address (server, interface, address, service_address) SELECT i.server, i.id, '192.0.2.7/24', 1 " +
          'FROM interface i JOIN server s ON s.id = i.server WHERE s.host_name LIKE ?',
        [`${prefix}-s%`],
      );
      for (let d = 0; d < 300; d++) {
        const ds = await insertDeliveryService(app, cdn.id, { xmlId: `${prefix}-ds${d}` });
        await sql(app, 'INSERT INTO regex (pattern, type) VALUES (?, ?)', [
          `.*\\.${ds.xmlId}\\..*`,
          typeId('HOST_REGEXP'),
        ]);
        await sql(
          app,
          'INSERT INTO deliveryservice_regex (deliveryservice, regex, set_number) SELECT ?, MAX(id), 0 FROM regex WHERE pattern = ?',
          [ds.id, `.*\\.${ds.xmlId}\\..*`],
        );
      }
      // Each server serves 3 delivery services.
      await sql(
        app,
        'INSERT INTO deliveryservice_server (deliveryservice, server) SELECT d.id, s.id FROM server s JOIN deliveryservice d ' +
          'ON d.cdn_id = s.cdn_id WHERE s.host_name LIKE ? AND (s.id + d.id) % 100 = 0',
        [`${prefix}-s%`],
      );
      const dataSource = app.get(DataSource);
      await fresh(world.cdn.name); // warms what a request reads once (the session, caches)
      await fresh(cdn.name);
      const queries = jest.spyOn(dataSource, 'query');
      await fresh(world.cdn.name);
      // The document's queries: those of the session (the user, its role) are not the builder's.
      const documentQueries = () =>
        queries.mock.calls
          .filter(([text]) => !/tm_user|role/.test(String(text)))
          .map(([text]) => String(text));
      const small = documentQueries();
      queries.mockClear();
      await fresh(cdn.name);
      const big = documentQueries();
      queries.mockRestore();
      expect(big).toEqual(small);
      // How fast is measured by `npm run bench` (docs/benchmarks.md), never by a timed assertion here.
      const doc = await fresh(cdn.name);
      expect(Object.keys(doc.contentServers ?? {})).toHaveLength(1000);
      expect(Object.keys(doc.deliveryServices ?? {})).toHaveLength(300);
      expect(Object.keys(doc.edgeLocations ?? {})).toHaveLength(50);
    }, 120_000);
  });
});
