import type { ServerWire } from 'src/modules/servers/dto/server.response';
import { ApiClient, responseOf, type Wire } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors } from 'test/e2e/support/alerts';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { setTopology, uniqueTopology } from 'test/e2e/support/fixtures/delivery-service-servers';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

const VERSIONS = ['3.0', '3.1', '4.0', '4.1', '5.0'];

/**
 * `GET servers?dsId=`: the servers of one delivery service, as the original answers them, and only
 * for a user whose tenancy holds the delivery service.
 */
describe('GET /servers?dsId=', () => {
  const { app, admin } = useApp();
  let cdn: { id: number; name: string };
  let otherCdn: { id: number; name: string };
  let assignedEdge: ServerResponse;
  let otherEdge: ServerResponse;
  let origin: ServerResponse;
  let mid: ServerResponse, midOfOtherCdn: ServerResponse, unrelatedMid: ServerResponse;
  let dsId: number;

  const assign = async (ds: number, servers: number[]) => {
    const res = await admin.post('deliveryserviceserver', { dsId: ds, servers, replace: true });
    expect(res.status).toBe(200);
  };
  const idsOf = async (client: ApiClient, query: string): Promise<number[]> => {
    const res = await client.get(`servers?${query}`);
    expect(res.status).toBe(200);
    const servers = responseOf<Wire<ServerWire>[]>(res);
    expect((res.body as { summary?: { count: number } }).summary).toEqual({ count: servers.length });
    return servers.map((s) => s.id).sort((a, b) => a - b);
  };
  const sorted = (...servers: ServerResponse[]) => servers.map((s) => s.id).sort((a, b) => a - b);

  beforeAll(async () => {
    cdn = await createCdn(admin);
    otherCdn = await createCdn(admin);
    const midGroup = await createCachegroup(admin, { typeName: 'MID_LOC' });
    const edgeGroup = await createCachegroup(admin, { parentCachegroupId: midGroup.id });
    const orgGroup = await createCachegroup(admin, { typeName: 'ORG_LOC' });
    assignedEdge = await createServer(admin, cdn.id, { cachegroupId: edgeGroup.id });
    otherEdge = await createServer(admin, cdn.id, { cachegroupId: edgeGroup.id });
    origin = await createServer(admin, cdn.id, { cachegroupId: orgGroup.id, typeName: 'ORG' });
    mid = await createServer(admin, cdn.id, { cachegroupId: midGroup.id, typeName: 'MID' });
    midOfOtherCdn = await createServer(admin, otherCdn.id, { cachegroupId: midGroup.id, typeName: 'MID' });
    unrelatedMid = await createServer(admin, cdn.id, { typeName: 'MID' });
    dsId = (await insertDeliveryService(app, cdn.id)).id;
    await assign(dsId, [assignedEdge.id, origin.id]);
  });

  it('lists the assigned servers and the MIDs of their CDN in the parent cache groups', async () => {
    expect(await idsOf(admin, `dsId=${dsId}`)).toEqual(sorted(assignedEdge, origin, mid));
    expect(await idsOf(admin, `dsId=${dsId}&type=MID`)).toEqual(sorted(mid));
    expect(await idsOf(admin, `dsId=${dsId}&type=EDGE`)).toEqual(sorted(assignedEdge));
    const page = await admin.get(`servers?dsId=${dsId}&orderby=id&limit=2&page=2`);
    expect(responseOf<Wire<ServerWire>[]>(page).map((s) => s.id)).toEqual(
      sorted(assignedEdge, origin, mid).slice(2),
    );
    expect((page.body as { summary?: { count: number } }).summary).toEqual({ count: 3 });
    for (const notServing of [otherEdge, midOfOtherCdn, unrelatedMid]) {
      expect(await idsOf(admin, `dsId=${dsId}`)).not.toContain(notServing.id);
    }
  });

  it.each(VERSIONS)('is served on %s', async (version) => {
    expect(await idsOf(admin.at(version), `dsId=${dsId}`)).toEqual(sorted(assignedEdge, origin, mid));
  });

  it('adds no MIDs for a live delivery service or a topology-based one', async () => {
    const live = (await insertDeliveryService(app, cdn.id, { typeName: 'HTTP_LIVE' })).id;
    await assign(live, [assignedEdge.id]);
    expect(await idsOf(admin, `dsId=${live}`)).toEqual(sorted(assignedEdge));

    const topologyBased = (await insertDeliveryService(app, cdn.id)).id;
    await setTopology(app, topologyBased, uniqueTopology(), [origin.cachegroupId]);
    const foreignOrigin = await createServer(admin, otherCdn.id, {
      cachegroupId: origin.cachegroupId,
      typeName: 'ORG',
    });
    await assign(topologyBased, [origin.id, foreignOrigin.id]);
    // Origins are listed whatever their CDN; a topology brings no MIDs.
    expect(await idsOf(admin, `dsId=${topologyBased}`)).toEqual(sorted(origin, foreignOrigin));
  });

  it('answers an empty list for a delivery service without servers or that does not exist', async () => {
    const empty = (await insertDeliveryService(app, cdn.id)).id;
    expect(await idsOf(admin, `dsId=${empty}`)).toEqual([]);
    expect(await idsOf(admin, 'dsId=999999999')).toEqual([]);
  });

  it('refuses a dsId that is not an integer', async () => {
    await expectErrors([
      [admin.get('servers?dsId=abc'), 400, 'dsId cannot parse to integer'],
      [admin.get('servers?dsId=1.5'), 400, 'dsId cannot parse to integer'],
    ]);
  });

  describe('tenancy', () => {
    let parentTenant: { id: number }, childTenant: { id: number }, siblingTenant: { id: number };
    let childUser: CreatedUser, parentUser: CreatedUser;
    let siblingDs: number, childDs: number;

    beforeAll(async () => {
      parentTenant = await createTenant(admin);
      childTenant = await createTenant(admin, parentTenant.id);
      siblingTenant = await createTenant(admin, parentTenant.id);
      childUser = await createUser(app, admin, 'read-only', childTenant.id);
      parentUser = await createUser(app, admin, 'read-only', parentTenant.id);
      siblingDs = (await insertDeliveryService(app, cdn.id, { tenantId: siblingTenant.id })).id;
      childDs = (await insertDeliveryService(app, cdn.id, { tenantId: childTenant.id })).id;
      await assign(siblingDs, [otherEdge.id]);
      await assign(childDs, [assignedEdge.id]);
    });

    it.each(VERSIONS)(
      'refuses on %s to list the servers of a delivery service outside the user’s tenancy',
      async (version) => {
        expectError(await childUser.client.at(version).get(`servers?dsId=${siblingDs}`), 403, 'Forbidden');
        expectError(
          await childUser.client.at(version).get(`servers?dsId=${siblingDs}&hostName=${otherEdge.hostName}`),
          403,
          'Forbidden',
        );
      },
    );

    it('lists them for users whose tenancy holds the delivery service', async () => {
      expect(await idsOf(childUser.client, `dsId=${childDs}`)).toEqual(sorted(assignedEdge, mid));
      expect(await idsOf(parentUser.client, `dsId=${siblingDs}`)).toEqual(sorted(otherEdge, mid));
      expect(await idsOf(admin, `dsId=${siblingDs}`)).toEqual(sorted(otherEdge, mid));
    });
  });
});
