import { responseOf, uniqueName } from 'test/e2e/support/api';
import { expectError } from 'test/e2e/support/alerts';
import { createCachegroup, typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse, statusIdOf } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

/**
 * A server assigned to a delivery service keeps its type and its CDN: PUT servers/{id} changing
 * either answers 409 with the original's text and changes nothing; unassigned, both may change.
 * The only EDGE server of an active delivery service keeps an ONLINE/REPORTED status and is not
 * deleted (409); the last server of a topology's cache group neither moves nor goes (400).
 */
describe('PUT and DELETE /servers/{id} of a server that delivery services need', () => {
  const { admin } = useApp();

  const body = (server: ServerResponse, overrides: Record<string, unknown>) => ({
    hostName: server.hostName,
    domainName: server.domainName,
    cachegroupId: server.cachegroupId,
    cdnId: server.cdnId,
    physLocationId: server.physLocationId,
    profileNames: server.profileNames,
    statusId: server.statusId,
    typeId: server.typeId,
    interfaces: server.interfaces,
    ...overrides,
  });
  const current = async (id: number): Promise<ServerResponse> =>
    responseOf<ServerResponse[]>(await admin.at('4.0').get(`servers?id=${id}`))[0];
  const assign = async (dsId: number, serverId: number): Promise<void> => {
    const res = await admin.post('deliveryserviceserver', { dsId, servers: [serverId], replace: false });
    expect(res.status).toBe(200);
  };

  it('refuses a type or CDN change with 409 while assigned', async () => {
    const cdn = await createCdn(admin);
    const otherCdn = await createCdn(admin);
    const otherProfile = await createProfile(admin, otherCdn.id);
    const server = await createServer(admin, cdn.id);
    const ds = await createDeliveryService(admin, cdn.id);
    await assign(ds.id, server.id);
    const midTypeId = await typeIdOf(admin, 'MID');

    expectError(
      await admin.at('4.0').put(`servers/${server.id}`, body(server, { typeId: midTypeId })),
      409,
      'server type can not be updated when it is currently assigned to Delivery Services',
    );
    expectError(
      await admin
        .at('4.0')
        .put(`servers/${server.id}`, body(server, { cdnId: otherCdn.id, profileNames: [otherProfile.name] })),
      409,
      'server cdn can not be updated when it is currently assigned to delivery services',
    );
    const after = await current(server.id);
    expect({ typeId: after.typeId, cdnId: after.cdnId }).toEqual({ typeId: server.typeId, cdnId: cdn.id });
    const unchanged = await admin.at('4.0').put(`servers/${server.id}`, body(server, {}));
    expect(unchanged.status).toBe(200);
  });

  it('lets an unassigned server change its type and CDN', async () => {
    const cdn = await createCdn(admin);
    const otherCdn = await createCdn(admin);
    const otherProfile = await createProfile(admin, otherCdn.id);
    const server = await createServer(admin, cdn.id);
    const midTypeId = await typeIdOf(admin, 'MID');
    const res = await admin
      .at('4.0')
      .put(
        `servers/${server.id}`,
        body(server, { typeId: midTypeId, cdnId: otherCdn.id, profileNames: [otherProfile.name] }),
      );
    expect(res.status).toBe(200);
    const after = await current(server.id);
    expect({ typeId: after.typeId, cdnId: after.cdnId }).toEqual({ typeId: midTypeId, cdnId: otherCdn.id });
  });

  it('refuses a status other than ONLINE or REPORTED, and the deletion, of the only EDGE server of an active delivery service (409)', async () => {
    const cdn = await createCdn(admin);
    const server = await createServer(admin, cdn.id);
    const ds = await createDeliveryService(admin, cdn.id);
    await assign(ds.id, server.id);
    const down = await statusIdOf(admin, 'ADMIN_DOWN');
    expectError(
      await admin.at('4.0').put(`servers/${server.id}`, body(server, { statusId: down })),
      409,
      `setting server status to 'ADMIN_DOWN' would leave Active Delivery Service #${ds.id} with no 'ONLINE' or 'REPORTED' EDGE servers`,
    );
    expect((await current(server.id)).statusId).toBe(server.statusId);
    const reported = await statusIdOf(admin, 'REPORTED');
    expect(
      (await admin.at('4.0').put(`servers/${server.id}`, body(server, { statusId: reported }))).status,
    ).toBe(200);
    expectError(
      await admin.at('4.0').delete(`servers/${server.id}`),
      409,
      `deleting server #${server.id} would leave Active Delivery Service`,
    );
    expect((await current(server.id)).id).toBe(server.id);
    const other = await createServer(admin, cdn.id);
    await assign(ds.id, other.id);
    expect((await admin.at('4.0').put(`servers/${server.id}`, body(server, { statusId: down }))).status).toBe(
      200,
    );
    expect((await admin.at('4.0').delete(`servers/${server.id}`)).status).toBe(200);
  });

  it("refuses to move or delete the last server of a topology's cache group, and the last of a CDN using it (400)", async () => {
    const cdn = await createCdn(admin);
    const otherCdn = await createCdn(admin);
    const cachegroup = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
    const elsewhere = await createCachegroup(admin, { typeName: 'EDGE_LOC' });
    const server = await createServer(admin, cdn.id, { cachegroupId: cachegroup.id });
    const topology = uniqueName('topo');
    const created = await admin.post('topologies', {
      name: topology,
      nodes: [{ cachegroup: cachegroup.name, parents: [] }],
    });
    expect(created.status).toBe(200);
    const empty = `cachegroups with no servers in them: ${cachegroup.name} (in topologies: ${topology})`;
    expectError(
      await admin.at('4.0').delete(`servers/${server.id}`),
      400,
      `server is the last one in its cachegroup, which is used by a topology: ${empty}`,
    );
    expectError(
      await admin.at('4.0').put(`servers/${server.id}`, body(server, { cachegroupId: elsewhere.id })),
      400,
      'server is the last one in its Cache Group, which is used by a Topology, so it cannot be moved to another ' +
        `Cache Group: ${empty}`,
    );
    expect((await current(server.id)).cachegroupId).toBe(cachegroup.id);
    await createDeliveryService(admin, cdn.id, { topology });
    await createServer(admin, otherCdn.id, { cachegroupId: cachegroup.id });
    expectError(
      await admin.at('4.0').delete(`servers/${server.id}`),
      400,
      'server is the last one in its cachegroup, which is used by a topology: topology is assigned to delivery ' +
        `service(s) on CDN ${cdn.id}, but the following cachegroups have no servers in CDN ${cdn.id}: ${cachegroup.name}`,
    );
    await createServer(admin, cdn.id, { cachegroupId: cachegroup.id });
    expect((await admin.at('4.0').delete(`servers/${server.id}`)).status).toBe(200);
  });
});
