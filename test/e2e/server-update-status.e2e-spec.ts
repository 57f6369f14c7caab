import { responseOf, uniqueName } from 'test/e2e/support/api';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { type Cachegroup, createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { createCdn, createParameter, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import type {
  ServerQueueUpdateResponse,
  ServerUpdateStatusV3,
  ServerUpdateStatusV4,
  ServerUpdateStatusV5,
} from 'src/modules/servers/dto/server-update-status.response';
import { useApp } from 'test/e2e/support/suite';

/** Go's RFC3339Nano in UTC: the fraction without trailing zeros, none on a whole second (D205). */
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{0,5}[1-9])?Z$/;

describe('server update status', () => {
  const { admin } = useApp();
  let cdn: { id: number; name: string };
  let otherCdn: { id: number; name: string };
  let profile: string;
  /** edge's cache group has mid's as its parent (no topology). */
  let edge: ServerResponse, mid: ServerResponse;
  /** tEdge → tMid → tOrg in a topology. */
  let tEdge: ServerResponse, tMid: ServerResponse, tOrg: ServerResponse, tMidOtherCdn: ServerResponse;

  const statusOf = async (server: ServerResponse, version = '4.0') =>
    responseOf<ServerUpdateStatusV5[]>(
      await admin.at(version).get(`servers/${server.hostName}/update_status`),
    )[0];
  const queue = (server: ServerResponse, action: 'queue' | 'dequeue') =>
    admin.post(`servers/${server.id}/queue_update`, { action });
  const flags = async (server: ServerResponse) => {
    const s = await statusOf(server);
    return [s.upd_pending, s.parent_pending, s.reval_pending, s.parent_reval_pending];
  };

  beforeAll(async () => {
    [cdn, otherCdn] = [await createCdn(admin), await createCdn(admin)];
    profile = (await createProfile(admin, cdn.id)).name;
    const otherProfile = (await createProfile(admin, otherCdn.id)).name;
    const server = (cg: Cachegroup, typeName: string, cdnId = cdn.id, profileName = profile) =>
      createServer(admin, cdnId, { cachegroupId: cg.id, typeName, profileName });
    const midCg = await createCachegroup(admin, { typeName: 'MID_LOC' });
    const edgeCg = await createCachegroup(admin, { typeName: 'EDGE_LOC', parentCachegroupId: midCg.id });
    mid = await server(midCg, 'MID');
    edge = await server(edgeCg, 'EDGE');
    const tEdgeCg = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
    const tMidCg = await createCachegroup(admin, { typeName: 'MID_LOC' });
    const tOrgCg = await createCachegroup(admin, { typeName: 'ORG_LOC' });
    tEdge = await server(tEdgeCg, 'EDGE');
    tMid = await server(tMidCg, 'MID');
    tOrg = await server(tOrgCg, 'ORG');
    tMidOtherCdn = await server(tMidCg, 'MID', otherCdn.id, otherProfile);
    const res = await admin.post('topologies', {
      name: uniqueName('topo'),
      nodes: [
        { cachegroup: tEdgeCg.name, parents: [1] },
        { cachegroup: tMidCg.name, parents: [2] },
        { cachegroup: tOrgCg.name, parents: [] },
      ],
    });
    if (res.status !== 200) {
      throw new Error(`creating the topology failed: ${res.text}`);
    }
  });

  describe('GET servers/{hostname}/update_status', () => {
    it("answers the server's flags and times on 4.0 (RFC 3339), with the failure flags on 5.0", async () => {
      const res = expectOk(await admin.get(`servers/${edge.hostName}/update_status`));
      const v4: ServerUpdateStatusV4 = {
        host_name: edge.hostName,
        upd_pending: false,
        reval_pending: false,
        use_reval_pending: false,
        host_id: edge.id,
        status: 'ONLINE',
        parent_pending: false,
        parent_reval_pending: false,
        // A new server's times are the epoch, as the original's NOT NULL DEFAULT epoch columns,
        // written as Go writes it (D205).
        config_update_time: '1970-01-01T00:00:00Z',
        config_apply_time: '1970-01-01T00:00:00Z',
        revalidate_update_time: '1970-01-01T00:00:00Z',
        revalidate_apply_time: '1970-01-01T00:00:00Z',
      };
      expect(res.body).toEqual({ response: [v4] });
      const v5 = await admin.at('5.0').get(`servers/${edge.hostName}/update_status`);
      expect(v5.body).toEqual({
        response: [{ ...v4, config_update_failed: false, revalidate_update_failed: false }],
      });
    });

    it('answers the bare array on 3.x, without the times', async () => {
      const res = expectOk(await admin.at('3.0').get(`servers/${edge.hostName}/update_status`));
      const v3: ServerUpdateStatusV3 = {
        host_name: edge.hostName,
        upd_pending: false,
        reval_pending: false,
        use_reval_pending: false,
        host_id: edge.id,
        status: 'ONLINE',
        parent_pending: false,
        parent_reval_pending: false,
      };
      expect(res.body).toEqual([v3]);
      expect((await admin.at('3.1').get('servers/nope/update_status')).body).toEqual([]);
    });

    it('answers an empty list for an unknown host', async () => {
      const res = await admin.get('servers/nope/update_status');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ response: [] });
    });

    it("shows the cache group's parent servers' pending updates as the parent's", async () => {
      const res = expectOk(await queue(mid, 'queue'));
      expect(res.body).toEqual({
        response: { serverId: mid.id, action: 'queue' } satisfies ServerQueueUpdateResponse,
      });
      expect(await flags(mid)).toEqual([true, false, false, false]);
      expect(await flags(edge)).toEqual([false, true, false, false]);
      const status = await statusOf(mid);
      expect(status.config_update_time).toMatch(RFC3339);
      await queue(mid, 'dequeue');
      expect(await flags(edge)).toEqual([false, false, false, false]);
    });

    it('shows the pending updates of the ancestors in a topology, through EDGE and MID cache groups, in the CDN', async () => {
      await queue(tMid, 'queue');
      expect(await flags(tEdge)).toEqual([false, true, false, false]);
      expect(await flags(tOrg)).toEqual([false, false, false, false]);
      await queue(tMid, 'dequeue');
      await queue(tOrg, 'queue');
      // An ORG_LOC parent is not climbed to.
      expect(await flags(tMid)).toEqual([false, false, false, false]);
      expect(await flags(tEdge)).toEqual([false, false, false, false]);
      await queue(tOrg, 'dequeue');
      await queue(tMidOtherCdn, 'queue');
      expect(await flags(tEdge)).toEqual([false, false, false, false]);
      await queue(tMidOtherCdn, 'dequeue');
    });

    it('says whether revalidations wait for their pending flag (the global use_reval_pending parameter)', async () => {
      const param = await createParameter(admin, {
        name: 'use_reval_pending',
        configFile: 'global',
        value: '1',
      });
      expect((await statusOf(edge)).use_reval_pending).toBe(true);
      expect((await admin.delete(`parameters/${param.id}`)).status).toBe(200);
      expect((await statusOf(edge)).use_reval_pending).toBe(false);
    });
  });

  describe('POST servers/{id-or-name}/update', () => {
    it('queues and applies with the legacy booleans (4.0: the alert names the server as asked)', async () => {
      let res = expectOk(await admin.post(`servers/${mid.hostName}/update?updated=true&reval_updated=1`));
      expect(res.body).toEqual({
        alerts: [
          {
            text: `successfully set server '${mid.hostName}' updated=true reval_updated=true`,
            level: 'success',
          },
        ],
      });
      expect(await flags(mid)).toEqual([true, false, true, false]);
      expect(await flags(edge)).toEqual([false, true, false, true]);
      res = await admin.post(`servers/${mid.id}/update?updated=false&reval_updated=f`);
      expectSuccessAlert(res, `successfully set server '${mid.id}' updated=false reval_updated=false`);
      expect(await flags(mid)).toEqual([false, false, false, false]);
    });

    it('takes the apply times in RFC 3339 and answers them as the original writes them back', async () => {
      await queue(tOrg, 'queue');
      const res = await admin.post(
        `servers/${tOrg.id}/update?config_apply_time=2099-01-02T03:04:05.500Z&revalidate_apply_time=2099-01-02T03:04:05Z`,
      );
      expectSuccessAlert(
        res,
        `successfully set server '${tOrg.id}' config_apply_time=2099-01-02T03:04:05.5Z revalidate_apply_time=2099-01-02T03:04:05Z`,
      );
      const status = await statusOf(tOrg);
      expect([status.upd_pending, status.config_apply_time, status.revalidate_apply_time]).toEqual([
        false,
        '2099-01-02T03:04:05.5Z',
        '2099-01-02T03:04:05Z',
      ]);
    });

    it('sets the failure flags on 5.0 only', async () => {
      const res = await admin
        .at('5.0')
        .post(`servers/${mid.id}/update?config_update_failed=true&revalidate_update_failed=0`);
      expectSuccessAlert(
        res,
        `successfully set server '${mid.id}' config_update_failed=true revalidate_update_failed=false`,
      );
      const status = await statusOf(mid, '5.0');
      expect([status.config_update_failed, status.revalidate_update_failed]).toEqual([true, false]);
      expectError(
        await admin.post(`servers/${mid.id}/update?config_update_failed=true`),
        400,
        "must pass at least one of the following query parameters: 'config_apply_time', 'revalidate_apply_time' ,'updated', 'reval_updated'",
      );
    });

    it("refuses the original's conflicts and bad values", async () => {
      const refused = async (query: string, text: string) =>
        expectError(await admin.post(`servers/${mid.id}/update?${query}`), 400, text);
      await refused(
        'updated=true&config_apply_time=2099-01-02T03:04:05Z',
        "conflicting parameters. may not pass 'updated' along with 'config_apply_time'",
      );
      await refused(
        'reval_updated=true&revalidate_apply_time=2099-01-02T03:04:05Z',
        "conflicting parameters. may not pass 'reval_updated' along with 'revalidate_apply_time'",
      );
      await refused(
        'config_apply_time=yesterday',
        'query parameter \'config_apply_time\' must be valid RFC3339Nano format:parsing time "yesterday" as "YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)"',
      );
      await refused('updated=yes', "query parameter 'updated' must be a boolean");
    });

    it('answers 404 for an unknown server, by id or by name', async () => {
      await expectErrors([
        [admin.post('servers/nope/update?updated=true'), 404, "server name 'nope' not found"],
        [admin.post('servers/2147483647/update?updated=true'), 404, "server ID '2147483647' not found"],
      ]);
    });

    it("on 3.x takes t, true, f or false in any case and names the server's host", async () => {
      const v3 = admin.at('3.0');
      expectSuccessAlert(
        await v3.post(`servers/${mid.id}/update?updated=TRUE`),
        `successfully set server '${mid.hostName}' updated=true`,
      );
      expect((await statusOf(mid)).upd_pending).toBe(true);
      expectSuccessAlert(
        await v3.post(`servers/${mid.hostName}/update?updated=F&reval_updated=false`),
        `successfully set server '${mid.hostName}' updated=f reval_updated=false`,
      );
      expect((await statusOf(mid)).upd_pending).toBe(false);
      await expectErrors([
        [
          v3.post(`servers/${mid.id}/update`),
          400,
          "Must pass at least one query paramter of 'updated' or 'reval_updated'",
        ],
        [
          v3.post(`servers/${mid.id}/update?updated=1`),
          400,
          "query parameter 'updated' must be 'true' or 'false'",
        ],
        [v3.post('servers/99999999/update?updated=true'), 404, "server ID '99999999' not found"],
      ]);
    });
  });

  describe('POST servers/{id}/queue_update', () => {
    it('refuses a bad action, malformed JSON, a bad id and an unknown server', async () => {
      await expectErrors([
        [
          admin.post(`servers/${mid.id}/queue_update`, { action: 'go' }),
          400,
          "action must be 'queue' or 'dequeue'",
        ],
        [admin.post(`servers/${mid.id}/queue_update`, {}), 400, "action must be 'queue' or 'dequeue'"],
        [
          admin.post(`servers/${mid.id}/queue_update`, { action: 1 }),
          400,
          "action must be 'queue' or 'dequeue'",
        ],
        [
          admin.post(`servers/${mid.id}/queue_update`, ['queue']),
          400,
          'the request body must be a JSON object',
        ],
        [
          admin.raw('post', `servers/${mid.id}/queue_update`, 'null'),
          400,
          'the request body must be a JSON object',
        ],
      ]);
      expectMalformedJson(await admin.raw('post', `servers/${mid.id}/queue_update`, '{'));
      await expectErrors([
        [
          admin.post('servers/x/queue_update', { action: 'queue' }),
          400,
          "getting integer parameters: parameter 'id' not an integer",
        ],
        [
          admin.post('servers/2147483647/queue_update', { action: 'queue' }),
          404,
          "server ID '2147483647' not found",
        ],
      ]);
    });
  });
});
