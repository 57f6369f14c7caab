import { DataSource } from 'typeorm';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

describe('PUT servers/{id}/status', () => {
  const { app, admin } = useApp();
  let cdn: { id: number; name: string };
  let profile: string;
  let mid: ServerResponse;
  let childEdge: ServerResponse, tMid: ServerResponse, tEdge: ServerResponse, unrelated: ServerResponse;

  const db = () => app.get(DataSource);
  const serverOf = async (id: number) =>
    responseOf<ServerResponse[]>(await admin.at('4.0').get(`servers?id=${id}`))[0];
  const clearUpdates = () => db().query('UPDATE server SET config_update_time = config_apply_time');
  const assign = (dsId: number, serverId: number) =>
    db().query('INSERT INTO deliveryservice_server (deliveryservice, server) VALUES (?, ?)', [
      dsId,
      serverId,
    ]);

  beforeAll(async () => {
    cdn = await createCdn(admin);
    profile = (await createProfile(admin, cdn.id)).name;
    const midCg = await createCachegroup(admin, { typeName: 'MID_LOC' });
    const edgeCg = await createCachegroup(admin, { typeName: 'EDGE_LOC', parentCachegroupId: midCg.id });
    mid = await createServer(admin, cdn.id, {
      cachegroupId: midCg.id,
      typeName: 'MID',
      profileName: profile,
    });
    childEdge = await createServer(admin, cdn.id, { cachegroupId: edgeCg.id, profileName: profile });
    const tMidCg = await createCachegroup(admin, { typeName: 'MID_LOC' });
    const tEdgeCg = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
    tMid = await createServer(admin, cdn.id, {
      cachegroupId: tMidCg.id,
      typeName: 'MID',
      profileName: profile,
    });
    tEdge = await createServer(admin, cdn.id, { cachegroupId: tEdgeCg.id, profileName: profile });
    unrelated = await createServer(admin, cdn.id, { profileName: profile });
    const res = await admin.post('topologies', {
      name: uniqueName('topo'),
      nodes: [
        { cachegroup: tEdgeCg.name, parents: [1] },
        { cachegroup: tMidCg.name, parents: [] },
      ],
    });
    expect(res.status).toBe(200);
  });

  beforeEach(clearUpdates);

  it("sets a MID server's status by id with its reason and queues updates on its child caches", async () => {
    const [offline] = await db().query<{ id: number | string }[]>(
      "SELECT id FROM status WHERE name = 'OFFLINE'",
    );
    const res = await admin.put(`servers/${mid.id}/status`, {
      status: Number(offline.id),
      offlineReason: 'test mid',
    });
    expectSuccessAlert(
      res,
      `Updated status [ OFFLINE ] for ${mid.hostName}.example.net [ admin: test mid ] and queued updates on all child caches`,
    );
    const after = await serverOf(mid.id);
    expect(after.status).toBe('OFFLINE');
    expect(after.offlineReason).toBe('admin: test mid');
    expect(after.statusLastUpdated).not.toBe(mid.statusLastUpdated);
    expect((await serverOf(childEdge.id)).updPending).toBe(true);
    expect((await serverOf(mid.id)).updPending).toBe(false);
    expect((await serverOf(unrelated.id)).updPending).toBe(false);
  });

  it('queues updates on the servers of topology nodes below the server (by status name)', async () => {
    const res = await admin.put(`servers/${tMid.id}/status`, { status: 'ADMIN_DOWN', offlineReason: 'topo' });
    expect(res.status).toBe(200);
    expect((await serverOf(tEdge.id)).updPending).toBe(true);
    expect((await serverOf(tMid.id)).updPending).toBe(false);
    expect((await serverOf(childEdge.id)).updPending).toBe(false);
  });

  it('clears the offline reason for a status that is not down, and writes the change log', async () => {
    await admin.put(`servers/${unrelated.id}/status`, { status: 'OFFLINE', offlineReason: 'x' });
    const res = await admin.put(`servers/${unrelated.id}/status`, {
      status: 'ONLINE',
      offlineReason: 'ignored',
    });
    const text = `Updated status [ ONLINE ] for ${unrelated.hostName}.example.net [  ] and queued updates on all child caches`;
    expectSuccessAlert(res, text);
    expect((await serverOf(unrelated.id)).offlineReason).toBeNull();
    const logs = responseOf<{ message: string }[]>(await admin.get('logs?days=1'));
    expect(logs.some((l) => l.message.includes(text))).toBe(true);
  });

  it('refuses to take down the last EDGE server of an active delivery service (409)', async () => {
    const edge = await createServer(admin, cdn.id, { profileName: profile });
    const ds = await insertDeliveryService(app, cdn.id);
    await assign(ds.id, edge.id);
    const res = await admin.put(`servers/${edge.id}/status`, {
      status: 'OFFLINE',
      offlineReason: 'last edge',
    });
    expectError(
      res,
      409,
      `setting server status to 'OFFLINE' would leave Active Delivery Service #${ds.id} with no 'ONLINE' or 'REPORTED' EDGE servers`,
    );
    expect((await serverOf(edge.id)).status).toBe('ONLINE');
    const other = await createServer(admin, cdn.id, { profileName: profile });
    await assign(ds.id, other.id);
    expect(
      (await admin.put(`servers/${edge.id}/status`, { status: 'OFFLINE', offlineReason: 'x' })).status,
    ).toBe(200);
  });

  it('refuses to take down the last origin of an active MSO delivery service (409)', async () => {
    const org = await createServer(admin, cdn.id, {
      cachegroupId: (await createCachegroup(admin, { typeName: 'ORG_LOC' })).id,
      typeName: 'ORG',
      profileName: profile,
    });
    const ds = await insertDeliveryService(app, cdn.id);
    await db().query('UPDATE deliveryservice SET multi_site_origin = 1 WHERE id = ?', [ds.id]);
    await assign(ds.id, org.id);
    const res = await admin.put(`servers/${org.id}/status`, { status: 'ADMIN_DOWN', offlineReason: 'x' });
    expectError(
      res,
      409,
      `setting server status to 'ADMIN_DOWN' would leave Active Delivery Service #${ds.id} with no 'ONLINE' or 'REPORTED' ORG servers`,
    );
  });

  it('answers 404 for an unknown server, 400 for an unknown status or a missing reason', async () => {
    await expectErrors([
      [
        admin.put('servers/11111111/status', { status: 'OFFLINE', offlineReason: 'x' }),
        404,
        'server ID 11111111 not found',
      ],
      [
        admin.put(`servers/${unrelated.id}/status`, { status: 'NOT_A_REAL_STATUS', offlineReason: 'x' }),
        400,
        'invalid status (does not exist)',
      ],
    ]);
    for (const status of ['OFFLINE', 'ADMIN_DOWN']) {
      expectError(
        await admin.put(`servers/${unrelated.id}/status`, { status }),
        400,
        'offlineReason is required for ADMIN_DOWN or OFFLINE status',
      );
    }
    expectError(await admin.put(`servers/${unrelated.id}/status`, {}), 400, 'status is required');
    expectMalformedJson(await admin.put(`servers/${unrelated.id}/status`, { status: true }));
    expect((await admin.put(`servers/${unrelated.id}/status`, [])).status).toBe(400);
  });

  it('words a mistyped field, the first one only, and a body that is not an object', async () => {
    const put = (body: unknown) => admin.put(`servers/${unrelated.id}/status`, body);
    await expectErrors([
      [put({ status: true, offlineReason: 1 }), 400, "malformed JSON: 'status' must be a status name or id"],
      [put({ status: 2 ** 31 }), 400, "malformed JSON: 'status' must be no greater than 2147483647"],
      [put({ status: '-2147483649' }), 400, "malformed JSON: 'status' must be no less than -2147483648"],
      [put({ status: 1.5 }), 400, "malformed JSON: 'status' must be an integer"],
      [put({ status: 'OFFLINE', offlineReason: 1 }), 400, "malformed JSON: 'offlineReason' must be a string"],
      [put([]), 400, 'the request body must be a JSON object'],
      [
        admin.raw('put', `servers/${unrelated.id}/status`, 'null'),
        400,
        'the request body must be a JSON object',
      ],
      [put({ status: null }), 400, 'status is required'],
    ]);
  });
});
