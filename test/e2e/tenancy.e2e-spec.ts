import { ForbiddenException } from '@nestjs/common';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import { ApiClient, responseOf } from 'test/e2e/support/api';
import { createTenant, createUser } from 'test/e2e/support/accounts';
import { useApp } from 'test/e2e/support/suite';

/**
 * docs/decisions.md#d13 through the running application: a user reaches their tenant and its descendants,
 * inactive ones included, unless their own tenant or one of its ancestors is inactive.
 */
describe('tenancy (D13)', () => {
  const { app, admin } = useApp();
  let tenancy: TenancyService;
  /** parent ─ child (inactive) ─ grandchild, sibling next to parent, all under root. */
  let parent: number, child: number, grandchild: number, sibling: number;

  beforeAll(async () => {
    tenancy = app.get(TenancyService);
    parent = (await createTenant(admin, 1, true)).id;
    child = (await createTenant(admin, parent, false)).id;
    grandchild = (await createTenant(admin, child, true)).id;
    sibling = (await createTenant(admin, 1, true)).id;
  });

  describe('TenancyService', () => {
    it('reaches the tenant itself and every descendant, inactive ones included', async () => {
      expect(await tenancy.isWithinReach(parent, parent)).toBe(true);
      expect(await tenancy.isWithinReach(parent, child)).toBe(true);
      expect(await tenancy.isWithinReach(parent, grandchild)).toBe(true);
      expect((await tenancy.reachableTenantIds(parent)).sort((a, b) => a - b)).toEqual([
        parent,
        child,
        grandchild,
      ]);
    });

    it('does not reach ancestors or siblings', async () => {
      expect(await tenancy.isWithinReach(parent, 1)).toBe(false);
      expect(await tenancy.isWithinReach(parent, sibling)).toBe(false);
      expect(await tenancy.isWithinReach(sibling, parent)).toBe(false);
      expect(await tenancy.isWithinReach(sibling, grandchild)).toBe(false);
    });

    it('lets the root reach every tenant', async () => {
      const all = await tenancy.reachableTenantIds(1);
      expect(all).toEqual(expect.arrayContaining([1, 2, parent, child, grandchild, sibling]));
    });

    it('reaches nothing from an inactive tenant or from below one', async () => {
      expect(await tenancy.reachableTenantIds(child)).toEqual([]);
      expect(await tenancy.reachableTenantIds(grandchild)).toEqual([]);
      expect(await tenancy.isWithinReach(child, child)).toBe(false);
      expect(await tenancy.isWithinReach(grandchild, grandchild)).toBe(false);
    });

    it('reaches nothing from a tenant that does not exist', async () => {
      expect(await tenancy.reachableTenantIds(99999999)).toEqual([]);
      expect(await tenancy.isWithinReach(1, 99999999)).toBe(false);
    });

    it('refuses out of reach with the original 403', async () => {
      await expect(tenancy.assertWithinReach(parent, grandchild)).resolves.toBeUndefined();
      await expect(tenancy.assertWithinReach(parent, sibling)).rejects.toThrow(ForbiddenException);
      await expect(tenancy.assertWithinReach(parent, sibling)).rejects.toThrow(
        'not authorized on this tenant',
      );
    });

    it('follows changes of the tree at once', async () => {
      const moving = (await createTenant(admin, sibling, true)).id;
      expect(await tenancy.isWithinReach(parent, moving)).toBe(false);
      const res = await admin.put(`tenants/${moving}`, {
        name: `moved-${moving}`,
        active: true,
        parentId: grandchild,
      });
      expect(res.status).toBe(200);
      expect(await tenancy.isWithinReach(parent, moving)).toBe(true);
      expect(await tenancy.isWithinReach(sibling, moving)).toBe(false);
    });
  });

  describe('through the API', () => {
    const tenantIds = async (client: ApiClient) =>
      responseOf<{ id: number }[]>(await client.get('tenants')).map((t) => t.id);
    const userTenantIds = async (client: ApiClient) =>
      responseOf<{ tenantId: number }[]>(await client.get('users')).map((u) => u.tenantId);

    it('lists for a parent user the parent, the inactive child and the grandchild', async () => {
      const user = await createUser(app, admin, 'read-only', parent);
      const ids = await tenantIds(user.client);
      expect(ids).toEqual(expect.arrayContaining([parent, child, grandchild]));
      expect(ids).not.toContain(sibling);
      expect(ids).not.toContain(1);
      const inGrandchild = await createUser(app, admin, 'read-only', grandchild);
      expect(await userTenantIds(user.client)).toEqual(expect.arrayContaining([parent, grandchild]));
      expect((await user.client.get(`users/${inGrandchild.id}`)).status).toBe(200);
    });

    it('lists nothing for users of an inactive tenant or of a tenant below one', async () => {
      for (const tenantId of [child, grandchild]) {
        const user = await createUser(app, admin, 'operations', tenantId);
        expect(await tenantIds(user.client)).toEqual([]);
        expect(await userTenantIds(user.client)).toEqual([]);
        const res = await user.client.post('tenants', {
          name: `t-${user.id}`,
          active: true,
          parentId: tenantId,
        });
        expect(res.status).toBe(403);
      }
    });

    it('lists for a sibling user nothing of the parent branch', async () => {
      const user = await createUser(app, admin, 'read-only', sibling);
      const ids = await tenantIds(user.client);
      expect(ids).toContain(sibling);
      expect(ids).not.toEqual(expect.arrayContaining([parent]));
      expect(await userTenantIds(user.client)).toEqual([sibling]);
    });
  });
});
