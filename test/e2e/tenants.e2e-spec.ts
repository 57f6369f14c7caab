import type { TenantWire } from 'src/modules/tenants/dto/tenant.response';
import { responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import { useApp } from 'test/e2e/support/suite';

type Tenant = Wire<TenantWire>;

const NOT_AUTHORIZED = 'not authorized on this tenant';

describe('tenants', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let withoutTenantWrites: CreatedUser;
  /** parent ─ child ─ grandchild, and sibling next to parent, all under root. */
  let parent: Tenant, child: Tenant, grandchild: Tenant, sibling: Tenant;
  let opsInParent: CreatedUser;

  const create = async (parentId = 1, active = true, client = admin): Promise<Tenant> => {
    const res = await client.post('tenants', { name: uniqueName('tenant'), active, parentId });
    expect(res.status).toBe(200);
    return responseOf<Tenant>(res);
  };
  const byId = async (id: number): Promise<Tenant | undefined> =>
    responseOf<Tenant[]>(await admin.get(`tenants?id=${id}`))[0];
  const byName = async (name: string): Promise<Tenant[]> =>
    responseOf<Tenant[]>(await admin.get(`tenants?name=${encodeURIComponent(name)}`));

  beforeAll(async () => {
    withoutTenantWrites = await createUser(app, admin, await createRole(admin, ['TENANT:READ']));
    parent = await create();
    child = await create(parent.id);
    grandchild = await create(child.id, false);
    sibling = await create();
    opsInParent = await createUser(app, admin, 'operations', parent.id);
  });

  describe('GET /tenants', () => {
    it('lists tenants ordered by name, with the seeded root and its parent names', async () => {
      const res = expectOk(await readOnly.client.get('tenants'));
      const tenants = responseOf<Tenant[]>(res);
      expect(tenants.find((t) => t.name === 'root')).toEqual({
        id: 1,
        name: 'root',
        active: true,
        parentId: null,
        parentName: null,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      expect(tenants.find((t) => t.id === grandchild.id)).toEqual({
        ...grandchild,
        active: false,
        parentId: child.id,
        parentName: child.name,
      });
      const names = tenants.map((t) => t.name);
      expect(names).toEqual([...names].sort());
    });

    it('filters by id, name, active and parentId', async () => {
      expect(await byName(child.name)).toEqual([child]);
      expect(await byId(sibling.id)).toEqual(sibling);
      const underChild = responseOf<Tenant[]>(await admin.get(`tenants?parentId=${child.id}`));
      expect(underChild).toEqual([grandchild]);
      const inactive = responseOf<Tenant[]>(await admin.get('tenants?active=false'));
      expect(inactive.every((t) => !t.active)).toBe(true);
      expect(inactive.map((t) => t.id)).toContain(grandchild.id);
      expect(await byName('no-such-tenant')).toEqual([]);
    });

    it('rejects filters that do not parse', async () => {
      await expectErrors([
        [admin.get('tenants?id=x'), 400, 'id cannot parse to integer'],
        [admin.get('tenants?parentId=x'), 400, 'parentId cannot parse to integer'],
        [admin.get('tenants?active=maybe'), 400, 'active cannot parse to boolean'],
      ]);
    });

    it('orders and pages in SQL', async () => {
      const all = responseOf<Tenant[]>(await admin.get('tenants?orderby=id'));
      expect(all.map((t) => t.id)).toEqual([...all.map((t) => t.id)].sort((a, b) => a - b));
      expect(responseOf<Tenant[]>(await admin.get('tenants?orderby=id&limit=2&page=2'))).toEqual(
        all.slice(2, 4),
      );
      const desc = responseOf<Tenant[]>(await admin.get('tenants?orderby=parentName&sortOrder=desc'));
      expect(desc).toHaveLength(all.length);
      expectError(await admin.get('tenants?limit=-5'), 400, 'limit parameter must be bigger than -1');
    });

    it('shows a user only the tenants within reach', async () => {
      const ids = responseOf<Tenant[]>(await opsInParent.client.get('tenants')).map((t) => t.id);
      expect(ids).toEqual(expect.arrayContaining([parent.id, child.id, grandchild.id]));
      expect(ids).not.toContain(sibling.id);
      expect(ids).not.toContain(1);
    });
  });

  describe('POST /tenants', () => {
    it('creates a tenant and answers it with the alert', async () => {
      const name = uniqueName('tenant');
      const res = expectOk(
        await admin.post('tenants', { name, active: true, parentId: parent.id }),
        'tenant was created.',
      );
      const created = responseOf<Tenant>(res);
      expect(created).toEqual({
        id: expect.any(Number),
        name,
        active: true,
        parentId: parent.id,
        parentName: parent.name,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      expect(await byId(created.id)).toEqual(created);
    });

    it('makes a tenant inactive unless told otherwise', async () => {
      const res = await admin.at('3.0').post('tenants', { name: uniqueName('tenant'), parentId: 1 });
      expect(res.status).toBe(200);
      expect(responseOf<Tenant>(res).active).toBe(false);
    });

    it('lets a user create below their own tenant only', async () => {
      const created = await create(child.id, true, opsInParent.client);
      expect(created.parentName).toBe(child.name);
      const name = uniqueName('tenant');
      await expectErrors([
        [
          opsInParent.client.post('tenants', { name, active: true, parentId: sibling.id }),
          403,
          NOT_AUTHORIZED,
        ],
        [opsInParent.client.post('tenants', { name, active: true, parentId: 1 }), 403, NOT_AUTHORIZED],
      ]);
      expect(await byName(name)).toEqual([]);
    });

    it('refuses a taken name', async () => {
      const res = await admin.post('tenants', { name: child.name, active: true, parentId: 1 });
      expectError(res, 400, `tenant name '${child.name}' already exists.`);
    });

    it('answers 404 for an unknown parent', async () => {
      const name = uniqueName('tenant');
      expectError(
        await admin.post('tenants', { name, active: true, parentId: 99999999 }),
        404,
        'tenant not found',
      );
      expect(await byName(name)).toEqual([]);
    });

    it.each([
      [{ active: true, parentId: 1 }, "'name' cannot be blank"],
      [{ name: '', active: true, parentId: 1 }, "'name' cannot be blank"],
      [{ name: 'x', active: true }, "'parentId' is required"],
      [{ name: 'x', active: 'yes', parentId: 1 }, "'active' must be a boolean"],
      [{ name: 'x', active: true, parentId: '1' }, "'parentId' must be an integer"],
      [{ name: 'x', active: true, parentId: 0 }, "'parentId' must be no less than 1"],
      [{ name: 7, parentId: 'one' }, "'name' must be a string, 'parentId' must be an integer"],
    ])('rejects %j', async (body, text) => {
      expectError(await admin.post('tenants', body), 400, text);
      expect(await byName('x')).toEqual([]);
    });

    it('rejects malformed JSON', async () => {
      const res = await admin.raw('post', 'tenants', '{"name": "x",');
      expectMalformedJson(res);
    });
  });

  describe('PUT /tenants/{id}', () => {
    it('updates name, active and parent', async () => {
      const tenant = await create(parent.id);
      const name = uniqueName('renamed');
      const res = expectOk(
        await admin.put(`tenants/${tenant.id}`, { name, active: false, parentId: sibling.id }),
        'tenant was updated.',
      );
      const updated = responseOf<Tenant>(res);
      expect(updated).toEqual({
        id: tenant.id,
        name,
        active: false,
        parentId: sibling.id,
        parentName: sibling.name,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      expect(await byId(tenant.id)).toEqual(updated);
    });

    it('answers 404 for a missing tenant and 400 for a bad id', async () => {
      const body = { name: uniqueName('tenant'), active: true, parentId: 1 };
      await expectErrors([
        [admin.put('tenants/99999999', body), 404, 'no tenant found with this id'],
        [admin.put('tenants/abc', body), 400, 'failed to parse key: id'],
      ]);
    });

    it('never changes the root tenant', async () => {
      const res = await admin.put('tenants/1', { name: 'root', active: true, parentId: 2 });
      expectError(res, 400, 'trying to change the root tenant, which is immutable');
      expect(await byId(1)).toMatchObject({ name: 'root', parentId: null });
    });

    it('refuses the tenant itself or a descendant as parent', async () => {
      const text = 'parentId: cannot be the tenant itself or one of its descendants';
      const body = { name: parent.name, active: true };
      expectError(await admin.put(`tenants/${parent.id}`, { ...body, parentId: parent.id }), 400, text);
      expectError(await admin.put(`tenants/${parent.id}`, { ...body, parentId: grandchild.id }), 400, text);
      expect(await byId(parent.id)).toEqual(parent);
    });

    it('answers 404 for an unknown parent and 400 for a taken name, changing nothing', async () => {
      const tenant = await create(parent.id);
      expectError(
        await admin.put(`tenants/${tenant.id}`, { ...tenant, parentId: 99999999 }),
        404,
        'tenant not found',
      );
      expectError(
        await admin.put(`tenants/${tenant.id}`, { ...tenant, name: sibling.name }),
        400,
        `tenant name '${sibling.name}' already exists.`,
      );
      expect(await byId(tenant.id)).toEqual(tenant);
    });

    it('needs the tenant and its new parent within reach', async () => {
      const mine = await create(child.id);
      const body = { name: mine.name, active: true };
      await expectErrors([
        [opsInParent.client.put(`tenants/${sibling.id}`, { ...sibling, parentId: 1 }), 403, NOT_AUTHORIZED],
        [
          opsInParent.client.put(`tenants/${mine.id}`, { ...body, parentId: sibling.id }),
          403,
          NOT_AUTHORIZED,
        ],
      ]);
      expect(await byId(mine.id)).toEqual(mine);
      const moved = await opsInParent.client.put(`tenants/${mine.id}`, { ...body, parentId: parent.id });
      expect(responseOf<Tenant>(moved).parentId).toBe(parent.id);
    });

    it('validates the body and needs the rights', async () => {
      const tenant = await create(parent.id);
      expectError(
        await admin.put(`tenants/${tenant.id}`, { name: tenant.name, active: 1, parentId: 1 }),
        400,
        "'active' must be a boolean",
      );
      const malformed = await admin.raw('put', `tenants/${tenant.id}`, '{');
      expectMalformedJson(malformed);
      const body = { ...tenant, name: uniqueName('tenant') };
      expectError(
        await withoutTenantWrites.client.put(`tenants/${tenant.id}`, body),
        403,
        'missing required Permissions: TENANT:UPDATE',
      );
      expect(await byId(tenant.id)).toEqual(tenant);
      expect((await withoutTenantWrites.client.at('3.0').put(`tenants/${tenant.id}`, body)).status).toBe(200);
    });
  });

  describe('DELETE /tenants/{id}', () => {
    it('deletes a tenant', async () => {
      const tenant = await create(parent.id);
      const res = expectOk(await admin.delete(`tenants/${tenant.id}`), 'tenant was deleted.');
      expect(res.body).toEqual({ alerts: [{ text: 'tenant was deleted.', level: 'success' }] });
      expect(await byId(tenant.id)).toBeUndefined();
    });

    it('answers 404 for a missing tenant and 400 for the root', async () => {
      await expectErrors([
        [admin.delete('tenants/99999999'), 404, 'no tenant with that key found'],
        [admin.delete('tenants/1'), 400, 'trying to change the root tenant, which is immutable'],
        [admin.delete('tenants/x'), 400, 'failed to parse key: id'],
      ]);
    });

    it('refuses a tenant with child tenants or users', async () => {
      const withChild = await create(parent.id);
      await create(withChild.id);
      expectError(
        await admin.delete(`tenants/${withChild.id}`),
        400,
        `Tenant '${withChild.id}' has child tenants. Please update these child tenants and retry.`,
      );
      const withUser = await create(parent.id);
      await createUser(app, admin, 'read-only', withUser.id);
      expectError(
        await admin.delete(`tenants/${withUser.id}`),
        400,
        `Tenant '${withUser.id}' has users. Please update these users and retry.`,
      );
      expect(await byId(withChild.id)).toEqual(withChild);
      expect(await byId(withUser.id)).toEqual(withUser);
    });

    it('needs the tenant within reach and the rights', async () => {
      const outside = await createTenant(admin, sibling.id);
      await expectErrors([
        [opsInParent.client.delete(`tenants/${outside.id}`), 403, NOT_AUTHORIZED],
        [
          withoutTenantWrites.client.delete(`tenants/${outside.id}`),
          403,
          'missing required Permissions: TENANT:DELETE',
        ],
      ]);
      expect(await byId(outside.id)).toMatchObject({ name: outside.name });
      const inside = await create(child.id);
      expectSuccessAlert(await opsInParent.client.delete(`tenants/${inside.id}`), 'tenant was deleted.');
      expectSuccessAlert(
        await withoutTenantWrites.client.at('3.0').delete(`tenants/${outside.id}`),
        'tenant was deleted.',
      );
    });
  });
});
