import { ApiClient, responseOf, uniqueName } from 'test/e2e/support/api';
import { CUSTOM_TIME, RFC3339_TIME } from 'test/e2e/support/times';
import { T3C_READS } from 'test/e2e/support/go-types';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
} from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

/**
 * The calls `t3c-request --get-data=config` and `t3c-update` make, in t3c's order, on API 5.0 with
 * WIRE_COMPAT=traffic-ops (the setting for Apache's 5.0 client), against a seeded edge and mid: each
 * answers as the Go type t3c decodes it into expects (docs/t3c.md).
 */
type Json = Record<string, unknown>;

describe('t3c: the request set of a cache configuration run (docs/t3c.md)', () => {
  const { app, admin } = useApp({ env: { WIRE_COMPAT: 'traffic-ops' } });
  let t3c: ApiClient;
  let cdn: { id: number; name: string };
  let edge: ServerResponse, mid: ServerResponse;
  let xmlId: string, profileName: string;

  const ok = async (path: string): Promise<unknown> => {
    const res = await t3c.get(path);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    return responseOf<unknown>(res);
  };
  const records = async (path: string): Promise<Json[]> => {
    const body = await ok(path);
    expect(Array.isArray(body)).toBe(true);
    return body as Json[];
  };
  const expectKeys = (record: Json | undefined, keys: readonly string[]) => {
    expect(record).toBeDefined();
    for (const key of keys) {
      expect(record).toHaveProperty(key);
    }
  };

  beforeAll(async () => {
    cdn = await createCdn(admin);
    const midGroup = await createCachegroup(admin, { typeName: 'MID_LOC' });
    const edgeGroup = await createCachegroup(admin, { parentCachegroupId: midGroup.id });
    const profile = await createProfile(admin, cdn.id);
    profileName = profile.name;
    for (const configFile of ['remap.config', 'parent.config', 'cachekey.config', 'records.config']) {
      const parameter = await createParameter(admin, { configFile, name: uniqueName('p'), value: 'v' });
      await assignParameter(admin, profile.id, parameter.id);
    }
    edge = await createServer(admin, cdn.id, { cachegroupId: edgeGroup.id, profileName });
    mid = await createServer(admin, cdn.id, { cachegroupId: midGroup.id, typeName: 'MID', profileName });
    const ds = await createDeliveryService(admin, cdn.id, { signingAlgorithm: 'url_sig' });
    xmlId = ds.xmlId;
    expect(
      (await admin.post('deliveryserviceserver', { dsId: ds.id, servers: [edge.id], replace: true })).status,
    ).toBe(200);
    expect((await admin.post(`deliveryservices/xmlId/${xmlId}/urlkeys/generate`)).status).toBe(200);
    expect(
      (
        await admin.at('4.0').post('jobs', {
          deliveryService: xmlId,
          regex: '/t3c/.*',
          startTime: new Date(Date.now() + 3_600_000).toISOString(),
          ttlHours: 24,
          invalidationType: 'REFRESH',
        })
      ).status,
    ).toBe(200);
    const capability = uniqueName('cap');
    expect((await admin.post('server_capabilities', { name: capability })).status).toBe(200);
    expect(
      (await admin.post('server_server_capabilities', { serverId: edge.id, serverCapability: capability }))
        .status,
    ).toBe(200);
    const topology = await admin.post('topologies', {
      name: uniqueName('topology'),
      description: 't3c',
      nodes: [
        { cachegroup: edgeGroup.name, parents: [1] },
        { cachegroup: midGroup.name, parents: [] },
      ],
    });
    expect(topology.status).toBe(200);
    // t3c signs in on 5.0 as an operations-level user, as the original's t3c does.
    t3c = (await ApiClient.admin(app)).at('5.0');
  });

  it('answers every configuration call as t3c decodes it', async () => {
    // 1. The GLOBAL profile's parameters (ParametersResponseV5).
    await records('profiles/name/GLOBAL/parameters');
    // 3. Every server (ServerV5: 5.0 names, RFC 3339 times).
    const servers = await records('servers');
    const ours = servers.find((s) => s.hostName === edge.hostName);
    expectKeys(ours, T3C_READS.server);
    expect(ours!.lastUpdated).toMatch(RFC3339_TIME);
    expect(ours!.cdn).toBe(cdn.name);
    expect(ours!.profiles).toEqual([profileName]);
    // 4. The CDN's SSL keys (CDNSSLKeysResponse): none here.
    await ok(`cdns/name/${cdn.name}/sslkeys`);
    // 5. The CDN's delivery services (DeliveryServiceV5, RFC 3339 with WIRE_COMPAT=traffic-ops).
    const dses = await records(`deliveryservices?cdn=${cdn.id}`);
    expect(dses.map((d) => d.xmlId)).toEqual([xmlId]);
    expect(dses[0].lastUpdated).toMatch(RFC3339_TIME);
    expectKeys(dses[0], T3C_READS.deliveryService);
    // 6. The CDN's assignments (DeliveryServiceServerV5).
    const assignments = await records(`deliveryserviceserver?limit=999999&cdn=${cdn.name}&orderby=`);
    expect(assignments).toContainEqual(
      expect.objectContaining({
        server: edge.id,
        deliveryService: dses[0].id,
        lastUpdated: expect.stringMatching(RFC3339_TIME),
      }),
    );
    // 8. The URL signing keys of a url_sig delivery service (a map key0…key15).
    const keys = (await ok(`deliveryservices/xmlId/${xmlId}/urlkeys`)) as Json;
    expect(Object.keys(keys)).toHaveLength(16);
    // 9. The server's profile's parameters.
    const parameters = await records(`profiles/name/${profileName}/parameters`);
    expect(parameters.map((p) => p.configFile)).toEqual(
      expect.arrayContaining(['remap.config', 'parent.config', 'cachekey.config', 'records.config']),
    );
    // 10. Every CDN (CDNV5).
    expect((await records('cdns')).find((c) => c.name === cdn.name)?.lastUpdated).toMatch(RFC3339_TIME);
    // 11. The CDN's jobs, old and new shapes (InvalidationJobV4: RFC 3339 startTime).
    const jobs = await records(`jobs?maxRevalDurationDays=&cdn=${cdn.name}`);
    expect(jobs).toHaveLength(1);
    expectKeys(jobs[0], T3C_READS.job);
    expect(jobs[0].startTime).toMatch(RFC3339_TIME);
    // 12. Cache groups (CacheGroupNullableV50) with their parents.
    const groups = await records('cachegroups');
    expect(groups.find((g) => g.id === edge.cachegroupId)?.parentCachegroupId).toBe(mid.cachegroupId);
    // 13. Servers' capabilities.
    expect((await records('server_server_capabilities')).map((c) => c.serverId)).toContain(edge.id);
    // 15. Every delivery service's regexes, its HOST_REGEXP first.
    const regexes = await records('deliveryservices_regexes');
    expect(regexes.find((r) => r.dsName === xmlId)).toMatchObject({
      regexes: [expect.objectContaining({ type: 'HOST_REGEXP', setNumber: 0 })],
    });
    // 16–18. Parameters by config file.
    for (const configFile of ['cachekey.config', 'remap.config', 'parent.config']) {
      expect((await records(`parameters?configFile=${configFile}`)).length).toBeGreaterThan(0);
    }
    // 19. Topologies with their nodes.
    expect((await records('topologies')).some((t) => Array.isArray(t.nodes))).toBe(true);
  });

  it('serves deliveryservices_required_capabilities on 4.x only, as the original (5.0 reads the DS field)', async () => {
    expect((await t3c.get('deliveryservices_required_capabilities')).status).toBe(404);
    expect((await t3c.at('4.1').get('deliveryservices_required_capabilities')).status).toBe(200);
  });

  it('answers the update calls: the server, its update status, the statuses, and the apply report', async () => {
    // 20. The server by host name.
    expect((await records(`servers?hostName=${edge.hostName}`)).map((s) => s.id)).toEqual([edge.id]);
    // Queue updates on the edge so that there is something to apply.
    expect((await admin.post(`servers/${edge.id}/queue_update`, { action: 'queue' })).status).toBe(200);
    // 21. Its update status (ServerUpdateStatusV5).
    const [status] = await records(`servers/${edge.hostName}/update_status`);
    expect(status).toMatchObject({ host_name: edge.hostName, upd_pending: true, reval_pending: false });
    expectKeys(status, T3C_READS.updateStatus);
    // 22. Statuses (StatusV50: RFC 3339).
    expect((await records('statuses'))[0].lastUpdated).toMatch(RFC3339_TIME);
    // 23. The apply report: the queued time as applied.
    const applied = String(status.config_update_time);
    const report = await t3c.post(
      `servers/${edge.hostName}/update?config_apply_time=${encodeURIComponent(applied)}`,
      {},
    );
    expect(report.status).toBe(200);
    const [after] = await records(`servers/${edge.hostName}/update_status`);
    expect(after.upd_pending).toBe(false);
    // The 4.x record of the same server keeps its custom lastUpdated.
    const [v4] = responseOf<Json[]>(await t3c.at('4.0').get(`servers?id=${edge.id}`));
    expect(v4.lastUpdated).toMatch(CUSTOM_TIME);
    expect((report.body as { alerts: Json[] }).alerts).toEqual([
      expect.objectContaining({ level: 'success' }),
    ]);
  });
});
