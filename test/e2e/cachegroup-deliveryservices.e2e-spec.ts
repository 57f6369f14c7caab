import { responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectApiHeaders } from 'test/e2e/support/headers';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { assignedPairs, crossProduct, setTopology } from 'test/e2e/support/fixtures/delivery-service-servers';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

const PERMISSIONS = [
  'CACHE-GROUP:UPDATE',
  'DELIVERY-SERVICE:UPDATE',
  'CACHE-GROUP:READ',
  'DELIVERY-SERVICE:READ',
];

describe('POST /cachegroups/{id}/deliveryservices', () => {
  const { app, admin } = useApp();
  let cdnA: { id: number; name: string };
  let cdnB: { id: number; name: string };
  let cachegroupId: number;
  let assignable: ServerResponse[];
  let mid: ServerResponse;
  let midOnlyCachegroupId: number, mixedCachegroupId: number;
  let parentTenant: { id: number };
  let childTenant: { id: number }, siblingTenant: { id: number }, inactiveTenant: { id: number };

  const path = (id: number | string) => `cachegroups/${id}/deliveryservices`;
  const newDs = async (options: { tenantId?: number; cdnId?: number } = {}) =>
    (await insertDeliveryService(app, options.cdnId ?? cdnA.id, { tenantId: options.tenantId })).id;

  beforeAll(async () => {
    [cdnA, cdnB] = [await createCdn(admin), await createCdn(admin)];
    const profileA = (await createProfile(admin, cdnA.id)).name;
    const profileB = (await createProfile(admin, cdnB.id)).name;
    cachegroupId = (await createCachegroup(admin)).id;
    const inCachegroup = (
      typeName: string,
      cachegroup = cachegroupId,
      cdn = cdnA.id,
      profileName = profileA,
    ) => createServer(admin, cdn, { cachegroupId: cachegroup, typeName, profileName });
    assignable = [await inCachegroup('EDGE'), await inCachegroup('EDGE'), await inCachegroup('ORG')];
    mid = await inCachegroup('MID');
    midOnlyCachegroupId = (await createCachegroup(admin)).id;
    await inCachegroup('MID', midOnlyCachegroupId);
    mixedCachegroupId = (await createCachegroup(admin)).id;
    await inCachegroup('EDGE', mixedCachegroupId);
    await inCachegroup('MID', mixedCachegroupId, cdnB.id, profileB);
    parentTenant = await createTenant(admin);
    childTenant = await createTenant(admin, parentTenant.id);
    siblingTenant = await createTenant(admin);
    inactiveTenant = await createTenant(admin, parentTenant.id, false);
  });

  it('assigns every EDGE and ORG server of the cache group to each delivery service', async () => {
    const dsIds = [await newDs(), await newDs()];
    const res = await admin.post(path(cachegroupId), { deliveryServices: dsIds });
    expectSuccessAlert(
      res,
      `Delivery services successfully assigned to all the servers of cache group ${cachegroupId}.`,
    );
    expectApiHeaders(res);
    expect(responseOf(res)).toEqual({
      id: cachegroupId,
      serverNames: assignable.map((s) => s.hostName).sort(),
      deliveryServices: dsIds,
    });
    expect(await assignedPairs(admin, dsIds)).toEqual(
      crossProduct(
        dsIds,
        assignable.map((s) => s.id),
      ),
    );
    expect((await assignedPairs(admin, dsIds)).some(([, server]) => server === mid.id)).toBe(false);
  });

  it('is idempotent: assigning again keeps the same rows, and existing pairs are kept', async () => {
    const dsIds = [await newDs(), await newDs()];
    const pre = await admin.post('deliveryserviceserver', {
      dsId: dsIds[0],
      servers: [assignable[0].id],
      replace: false,
    });
    expect(pre.status).toBe(200);
    const before = await admin.get(`deliveryserviceserver?deliveryserviceids=${dsIds[0]}`);
    const existing = responseOf<Record<string, unknown>[]>(before)[0];

    expect((await admin.post(path(cachegroupId), { deliveryServices: dsIds })).status).toBe(200);
    const second = await admin.post(path(cachegroupId), { deliveryServices: [...dsIds, dsIds[0]] });
    expect(second.status).toBe(200);
    expect(responseOf<{ deliveryServices: number[] }>(second).deliveryServices).toEqual([...dsIds, dsIds[0]]);
    expect(await assignedPairs(admin, dsIds)).toEqual(
      crossProduct(
        dsIds,
        assignable.map((s) => s.id),
      ),
    );
    const after = await admin.get(
      `deliveryserviceserver?deliveryserviceids=${dsIds[0]}&serverids=${assignable[0].id}`,
    );
    expect(responseOf(after)).toEqual([existing]);
  });

  it('answers 200 on every version', async () => {
    for (const version of ['3.0', '3.1', '4.0', '4.1', '5.0']) {
      const dsId = await newDs();
      const res = await admin.at(version).post(path(cachegroupId), { deliveryServices: [dsId] });
      expect(res.status).toBe(200);
      expect(await assignedPairs(admin, [dsId])).toEqual(
        crossProduct(
          [dsId],
          assignable.map((s) => s.id),
        ),
      );
    }
  });

  it('accepts an empty list and assigns nothing', async () => {
    const res = await admin.post(path(cachegroupId), { deliveryServices: [] });
    expect(res.status).toBe(200);
    expect(responseOf(res)).toEqual({
      id: cachegroupId,
      serverNames: assignable.map((s) => s.hostName).sort(),
      deliveryServices: [],
    });
  });

  it('refuses a cache group without EDGE or ORG servers, or that does not exist', async () => {
    const dsId = await newDs();
    await expectErrors([
      [
        admin.post(path(midOnlyCachegroupId), { deliveryServices: [dsId] }),
        400,
        `no edge or origin servers found on cachegroup ${midOnlyCachegroupId}`,
      ],
      [
        admin.post(path(987654321), { deliveryServices: [dsId] }),
        400,
        'no edge or origin servers found on cachegroup 987654321',
      ],
    ]);
    expect(await assignedPairs(admin, [dsId])).toEqual([]);
  });

  it('refuses a delivery service of another CDN, writing nothing (decision D8)', async () => {
    const sameCdn = await newDs();
    const otherCdn = await newDs({ cdnId: cdnB.id });
    expectError(
      await admin.post(path(cachegroupId), { deliveryServices: [sameCdn, otherCdn] }),
      400,
      `servers/deliveryservices do not belong to same cdn '${cdnB.name}'`,
    );
    expect(await assignedPairs(admin, [sameCdn, otherCdn])).toEqual([]);
  });

  it('refuses when any server of the cache group, of any type, is outside the CDN', async () => {
    const dsId = await newDs();
    expectError(
      await admin.post(path(mixedCachegroupId), { deliveryServices: [dsId] }),
      400,
      `servers/deliveryservices do not belong to same cdn '${cdnA.name}'`,
    );
    expect(await assignedPairs(admin, [dsId])).toEqual([]);
  });

  it('refuses an unknown delivery service, writing nothing', async () => {
    const dsId = await newDs();
    expectError(
      await admin.post(path(cachegroupId), { deliveryServices: [dsId, 987654321] }),
      404,
      'delivery service 987654321 not found',
    );
    expect(await assignedPairs(admin, [dsId])).toEqual([]);
  });

  it('refuses topology-based delivery services', async () => {
    const [plain, first, second] = [await newDs(), await newDs(), await newDs()];
    await setTopology(app, first, 'topology-a');
    await setTopology(app, second, 'topology-b');
    expectError(
      await admin.post(path(cachegroupId), { deliveryServices: [plain, first, second] }),
      400,
      `delivery services [${first} ${second}] are already assigned to a topology`,
    );
    expect(await assignedPairs(admin, [plain, first, second])).toEqual([]);
  });

  describe('tenancy', () => {
    it('lets a user assign delivery services of their tenant and its descendants', async () => {
      const user = await createUser(app, admin, 'operations', parentTenant.id);
      const dsIds = [await newDs({ tenantId: parentTenant.id }), await newDs({ tenantId: childTenant.id })];
      dsIds.push(await newDs({ tenantId: inactiveTenant.id }));
      expect((await user.client.post(path(cachegroupId), { deliveryServices: dsIds })).status).toBe(200);
      expect(await assignedPairs(admin, dsIds)).toEqual(
        crossProduct(
          dsIds,
          assignable.map((s) => s.id),
        ),
      );
    });

    it('refuses a delivery service of a parent or sibling tenant, writing nothing', async () => {
      const child = await createUser(app, admin, 'operations', childTenant.id);
      const own = await newDs({ tenantId: childTenant.id });
      const parents = await newDs({ tenantId: parentTenant.id });
      const siblings = await newDs({ tenantId: siblingTenant.id });
      await expectErrors([
        [
          child.client.post(path(cachegroupId), { deliveryServices: [own, parents] }),
          403,
          `not authorized for delivery service tenant ${parentTenant.id}`,
        ],
        [
          child.client.post(path(cachegroupId), { deliveryServices: [siblings] }),
          403,
          `not authorized for delivery service tenant ${siblingTenant.id}`,
        ],
      ]);
      expect(await assignedPairs(admin, [own, parents, siblings])).toEqual([]);
    });

    it('refuses everything to a user of an inactive tenant', async () => {
      const user = await createUser(app, admin, 'operations', inactiveTenant.id);
      const own = await newDs({ tenantId: inactiveTenant.id });
      expectError(
        await user.client.post(path(cachegroupId), { deliveryServices: [own] }),
        403,
        `not authorized for delivery service tenant ${inactiveTenant.id}`,
      );
      expect(await assignedPairs(admin, [own])).toEqual([]);
    });
  });

  describe('bad input', () => {
    it('refuses malformed JSON', async () => {
      const res = await admin.raw('post', path(cachegroupId), '{"deliveryServices": [1,');
      expectMalformedJson(res);
    });

    it('refuses a missing or mistyped list', async () => {
      expectError(await admin.post(path(cachegroupId), {}), 400, "'deliveryServices' is required");
      for (const deliveryServices of ['1', [1, 'x'], [1.5], { id: 1 }]) {
        expectError(
          await admin.post(path(cachegroupId), { deliveryServices }),
          400,
          "'deliveryServices' must be an array of integers",
        );
      }
      expectError(await admin.post(path(cachegroupId), [1]), 400, 'the request body must be a JSON object');
    });

    it('refuses a cache group id that is not an integer', async () => {
      expectError(
        await admin.post(path('abc'), { deliveryServices: [] }),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      );
    });
  });

  describe('authorization', () => {
    let lacking: CreatedUser, holding: CreatedUser;

    beforeAll(async () => {
      lacking = await createUser(app, admin, await createRole(admin, PERMISSIONS.slice(1)));
      holding = await createUser(app, admin, await createRole(admin, PERMISSIONS));
    });

    it('needs the permissions on 4.0 but not on 3.0', async () => {
      const dsId = await newDs();
      expectError(
        await lacking.client.post(path(cachegroupId), { deliveryServices: [dsId] }),
        403,
        'missing required Permissions: CACHE-GROUP:UPDATE',
      );
      expect(await assignedPairs(admin, [dsId])).toEqual([]);
      expect(
        (await lacking.client.at('3.0').post(path(cachegroupId), { deliveryServices: [dsId] })).status,
      ).toBe(200);
      expect((await holding.client.post(path(cachegroupId), { deliveryServices: [dsId] })).status).toBe(200);
    });
  });
});
