import { ApiClient, responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService, deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import type { DeliveryServiceResponse } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

type Ds = DeliveryServiceResponse;
const NOT_AUTHORIZED = 'not authorized on this tenant';

/**
 * docs/decisions.md#d13 on delivery services: root ─ parent ─ child (inactive) ─ grandchild, and sibling
 * next to parent; users with the admin role in parent, child and sibling.
 */
describe('deliveryservices tenancy (D13)', () => {
  const { app, admin } = useApp();
  let cdn: { id: number; name: string };
  let httpType: number;
  let tenants: { parent: number; child: number; grandchild: number; sibling: number };
  let users: { parent: CreatedUser; child: CreatedUser; sibling: CreatedUser };
  let dses: { root: Ds; parent: Ds; child: Ds; grandchild: Ds; sibling: Ds };

  const visible = async (client: ApiClient): Promise<number[]> => {
    const res = await client.get(`deliveryservices?cdn=${cdn.id}`);
    expect(res.status).toBe(200);
    return responseOf<Ds[]>(res)
      .map((d) => d.id)
      .sort((a, b) => a - b);
  };
  const ids = (...list: Ds[]) => list.map((d) => d.id).sort((a, b) => a - b);
  const fetch = async (id: number): Promise<Ds | undefined> =>
    responseOf<Ds[]>(await admin.get(`deliveryservices?id=${id}`))[0];
  const bodyFor = (ds: Ds, overrides: Record<string, unknown> = {}) => {
    const {
      id: _i,
      cdnName: _c,
      exampleURLs: _e,
      matchList: _m,
      lastUpdated: _l,
      tenant: _t,
      type: _ty,
      ...rest
    } = ds;
    return { ...rest, ...overrides };
  };

  beforeAll(async () => {
    cdn = await createCdn(admin);
    httpType = await typeIdOf(admin, 'HTTP');
    const parent = (await createTenant(admin, 1, true)).id;
    const child = (await createTenant(admin, parent, false)).id;
    const grandchild = (await createTenant(admin, child, true)).id;
    const sibling = (await createTenant(admin, 1, true)).id;
    tenants = { parent, child, grandchild, sibling };
    users = {
      parent: await createUser(app, admin, 'admin', parent),
      child: await createUser(app, admin, 'admin', child),
      sibling: await createUser(app, admin, 'admin', sibling),
    };
    dses = {
      root: await createDeliveryService(admin, cdn.id),
      parent: await createDeliveryService(admin, cdn.id, { tenantId: parent }),
      child: await createDeliveryService(admin, cdn.id, { tenantId: child }),
      grandchild: await createDeliveryService(admin, cdn.id, { tenantId: grandchild }),
      sibling: await createDeliveryService(admin, cdn.id, { tenantId: sibling }),
    };
  });

  describe('GET', () => {
    it('shows a parent tenant its own and its descendants’ delivery services, inactive ones included', async () => {
      expect(await visible(users.parent.client)).toEqual(ids(dses.parent, dses.child, dses.grandchild));
    });
    it('shows a user of an inactive tenant nothing', async () => {
      expect(await visible(users.child.client)).toEqual([]);
    });
    it('does not show a child tenant its parent’s or a sibling’s delivery services', async () => {
      expect(await visible(users.sibling.client)).toEqual(ids(dses.sibling));
    });
    it('shows root everything', async () => {
      expect(await visible(admin)).toEqual(ids(...Object.values(dses)));
    });
    it('filters by accessibleTo', async () => {
      const res = await admin.get(`deliveryservices?cdn=${cdn.id}&accessibleTo=${tenants.sibling}`);
      expect(responseOf<Ds[]>(res).map((d) => d.id)).toEqual([dses.sibling.id]);
    });
    it('answers an empty array for a delivery service out of reach on 3.x GET by id', async () => {
      const res = await users.sibling.client.at('3.0').get(`deliveryservices/${dses.parent.id}`);
      expect(res.status).toBe(200);
      expect(responseOf(res)).toEqual([]);
    });
  });

  describe('POST', () => {
    it('creates in the user’s own or a descendant tenant', async () => {
      const res = await users.parent.client.post(
        'deliveryservices',
        deliveryServiceBody(cdn.id, httpType, { tenantId: tenants.grandchild }),
      );
      expect(res.status).toBe(200);
      expect(responseOf<Ds[]>(res)[0].tenantId).toBe(tenants.grandchild);
    });
    it('refuses a sibling or ancestor tenant, writing nothing', async () => {
      for (const tenantId of [tenants.sibling, 1]) {
        const body = deliveryServiceBody(cdn.id, httpType, { tenantId });
        expectError(await users.parent.client.post('deliveryservices', body), 403, NOT_AUTHORIZED);
        expect(responseOf(await admin.get(`deliveryservices?xmlId=${body.xmlId as string}`))).toEqual([]);
      }
    });
    it('refuses a user of an inactive tenant in its own tenant', async () => {
      const body = deliveryServiceBody(cdn.id, httpType, { tenantId: tenants.child });
      expectError(await users.child.client.post('deliveryservices', body), 403, NOT_AUTHORIZED);
    });
  });

  describe('PUT', () => {
    it('updates a descendant’s delivery service', async () => {
      const res = await users.parent.client.put(
        `deliveryservices/${dses.grandchild.id}`,
        bodyFor(dses.grandchild, { displayName: 'by parent' }),
      );
      expect(res.status).toBe(200);
      expect((await fetch(dses.grandchild.id))?.displayName).toBe('by parent');
    });
    it('refuses a delivery service outside the tenancy', async () => {
      expectError(
        await users.sibling.client.put(
          `deliveryservices/${dses.parent.id}`,
          bodyFor(dses.parent, { displayName: 'x' }),
        ),
        403,
        NOT_AUTHORIZED,
      );
      expect((await fetch(dses.parent.id))?.displayName).toBe(dses.parent.displayName);
    });
    it('refuses moving a delivery service to a tenant outside the tenancy', async () => {
      expectError(
        await users.parent.client.put(
          `deliveryservices/${dses.parent.id}`,
          bodyFor(dses.parent, { tenantId: tenants.sibling }),
        ),
        403,
        NOT_AUTHORIZED,
      );
      expect((await fetch(dses.parent.id))?.tenantId).toBe(tenants.parent);
    });
    it('refuses a user of an inactive tenant', async () => {
      expectError(
        await users.child.client.put(
          `deliveryservices/${dses.child.id}`,
          bodyFor(dses.child, { displayName: 'x' }),
        ),
        403,
        NOT_AUTHORIZED,
      );
    });
  });

  describe('safe update', () => {
    it('refuses a delivery service outside the tenancy', async () => {
      expectError(
        await users.sibling.client.put(`deliveryservices/${dses.parent.id}/safe`, { displayName: 'x' }),
        403,
        NOT_AUTHORIZED,
      );
      expect((await fetch(dses.parent.id))?.displayName).toBe(dses.parent.displayName);
    });
    it('checks the tenancy before the body', async () => {
      expectError(
        await users.sibling.client.put(`deliveryservices/${dses.parent.id}/safe`, {}),
        403,
        NOT_AUTHORIZED,
      );
    });
    it('lets a parent tenant update a child’s delivery service', async () => {
      const res = await users.parent.client.put(`deliveryservices/${dses.child.id}/safe`, {
        displayName: 'safe by parent',
      });
      expect(res.status).toBe(200);
    });
  });

  describe('DELETE', () => {
    it('refuses a delivery service outside the tenancy, deleting nothing', async () => {
      expectError(await users.sibling.client.delete(`deliveryservices/${dses.root.id}`), 403, NOT_AUTHORIZED);
      expectError(await users.child.client.delete(`deliveryservices/${dses.child.id}`), 403, NOT_AUTHORIZED);
      expect(await fetch(dses.root.id)).toBeDefined();
      expect(await fetch(dses.child.id)).toBeDefined();
    });
    it('deletes a descendant’s delivery service', async () => {
      const ds = await createDeliveryService(admin, cdn.id, { tenantId: tenants.grandchild });
      expect((await users.parent.client.delete(`deliveryservices/${ds.id}`)).status).toBe(200);
      expect(await fetch(ds.id)).toBeUndefined();
    });
  });
});
