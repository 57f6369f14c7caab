import { expectError, responseOf } from 'test/e2e/support/api';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

/**
 * A server assigned to a delivery service keeps its type and its CDN: PUT servers/{id} changing
 * either answers 409 with the original's text and changes nothing; unassigned, both may change.
 */
describe('PUT /servers/{id} of a server assigned to delivery services', () => {
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
});
