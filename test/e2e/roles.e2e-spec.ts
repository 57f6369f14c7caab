import type { RoleV3, RoleV4 as RoleV4Wire } from 'src/modules/roles/dto/role.response';
import { responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { RFC3339_TIME } from 'test/e2e/support/times';
import { useApp } from 'test/e2e/support/suite';

type RoleV4 = Wire<RoleV4Wire>;

/** RoleV40 writes `lastUpdated` as RFC 3339 (Go time.Time) on 4.x and 5.0 (D5b). */
const TIMESTAMP = RFC3339_TIME;

describe('roles', () => {
  const { app, admin } = useApp();
  let withoutRoleRead: CreatedUser, readOnlyRoles: CreatedUser, roleCreator: CreatedUser;

  const byName = async (name: string): Promise<RoleV4[]> =>
    responseOf<RoleV4[]>(await admin.get(`roles?name=${encodeURIComponent(name)}`));
  const v3ByName = async (name: string): Promise<RoleV3[]> =>
    responseOf<RoleV3[]>(await admin.at('3.0').get(`roles?name=${encodeURIComponent(name)}`));
  const create = async (permissions: string[] = ['CDN:READ']): Promise<RoleV4> => {
    const res = await admin.post('roles', { name: uniqueName('role'), description: 'a role', permissions });
    expect(res.status).toBe(200);
    return responseOf<RoleV4>(res);
  };

  beforeAll(async () => {
    withoutRoleRead = await createUser(app, admin, await createRole(admin, ['CDN:READ']));
    readOnlyRoles = await createUser(app, admin, await createRole(admin, ['ROLE:READ']));
    roleCreator = await createUser(
      app,
      admin,
      await createRole(admin, ['ROLE:CREATE', 'ROLE:READ', 'ROLE:UPDATE', 'ROLE:DELETE', 'CDN:READ']),
    );
  });

  describe('GET /roles', () => {
    it('lists roles by name with their permissions on 4.0', async () => {
      const res = expectOk(await admin.get('roles'));
      const roles = responseOf<RoleV4[]>(res);
      expect(roles.find((r) => r.name === 'admin')).toEqual({
        name: 'admin',
        description: 'Has access to everything - cannot be modified or deleted',
        permissions: ['ALL'],
        lastUpdated: expect.stringMatching(TIMESTAMP),
      });
      expect(roles.find((r) => r.name === 'trouter')?.permissions).toEqual(
        [
          'CDN:READ',
          'DELIVERY-SERVICE:READ',
          'DNS-SEC:READ',
          'DS-SECURITY-KEY:READ',
          'FEDERATION-RESOLVER:READ',
          'STEERING:READ',
        ].sort(),
      );
      const names = roles.map((r) => r.name);
      expect(names).toEqual([...names].sort());
    });

    it('shows id, level and capabilities on 3.0', async () => {
      const res = await admin.at('3.0').get('roles?name=read-only');
      expect(res.status).toBe(200);
      const [role] = responseOf<RoleV3[]>(res);
      expect(role).toEqual({
        id: 3,
        name: 'read-only',
        description: 'Has access to all read capabilities',
        privLevel: 10,
        capabilities: expect.arrayContaining(['CDN:READ', 'USER:READ']),
      });
      expect(Object.keys(role)).toEqual(['id', 'name', 'description', 'privLevel', 'capabilities']);
    });

    it('filters by id and privLevel on 3.0 only, by name everywhere', async () => {
      expect(responseOf<RoleV3[]>(await admin.at('3.0').get('roles?id=1')).map((r) => r.name)).toEqual([
        'admin',
      ]);
      const level15 = responseOf<RoleV3[]>(await admin.at('3.0').get('roles?privLevel=15'));
      expect(level15.map((r) => r.name)).toEqual(
        expect.arrayContaining(['federation', 'portal', 'steering']),
      );
      expect(level15.every((r) => r.privLevel === 15)).toBe(true);
      expect(responseOf<RoleV4[]>(await admin.get('roles?id=1')).length).toBeGreaterThan(1);
      expect((await byName('operations')).map((r) => r.name)).toEqual(['operations']);
      await expectErrors([
        [admin.at('3.0').get('roles?id=one'), 400, 'id cannot parse to integer'],
        [admin.at('3.0').get('roles?privLevel=high'), 400, 'privLevel cannot parse to integer'],
      ]);
    });

    it('pages in SQL', async () => {
      await create();
      const all = responseOf<RoleV4[]>(await admin.get('roles'));
      expect(responseOf<RoleV4[]>(await admin.get('roles?limit=3&offset=2'))).toEqual(all.slice(2, 5));
      const desc = responseOf<RoleV4[]>(await admin.get('roles?orderby=name&sortOrder=desc')).map(
        (r) => r.name,
      );
      expect(desc).toEqual([...all.map((r) => r.name)].reverse());
    });

    it('needs ROLE:READ on 4.0 only', async () => {
      expectError(await withoutRoleRead.client.get('roles'), 403, 'missing required Permissions: ROLE:READ');
      expect((await withoutRoleRead.client.at('3.0').get('roles')).status).toBe(200);
    });
  });

  describe('POST /roles', () => {
    it('creates a role with its permissions at the creator level on 4.0', async () => {
      const name = uniqueName('role');
      const res = await admin.post('roles', {
        name,
        description: 'made on 4.0',
        permissions: ['TYPE:READ', 'CDN:READ', 'CDN:READ'],
      });
      expectOk(res, 'role was created.');
      expect(responseOf<RoleV4>(res)).toEqual({
        name,
        description: 'made on 4.0',
        permissions: ['CDN:READ', 'TYPE:READ'],
        lastUpdated: expect.stringMatching(TIMESTAMP),
      });
      expect(await byName(name)).toEqual([responseOf<RoleV4>(res)]);
      expect((await v3ByName(name))[0].privLevel).toBe(30);
    });

    it('creates a role with an explicit level and capabilities on 3.0', async () => {
      const name = uniqueName('role');
      const res = await admin.at('3.0').post('roles', {
        name,
        description: 'made on 3.0',
        privLevel: 15,
        capabilities: ['CDN:READ'],
      });
      expectSuccessAlert(res, 'role was created.');
      expect(responseOf<RoleV3>(res)).toEqual({
        id: expect.any(Number),
        name,
        description: 'made on 3.0',
        privLevel: 15,
        capabilities: ['CDN:READ'],
      });
      const bare = await admin
        .at('3.0')
        .post('roles', { name: uniqueName('role'), description: 'd', privLevel: 0 });
      expect(responseOf<RoleV3>(bare).capabilities).toEqual([]);
    });

    it('refuses a taken name', async () => {
      const res = await admin.post('roles', { name: 'operations', description: 'again', permissions: [] });
      expectError(res, 400, "role name 'operations' already exists.");
    });

    it.each([
      ['4.0', { description: 'd' }, "'name' cannot be blank"],
      ['4.0', { name: '', description: 'd' }, "'name' cannot be blank"],
      ['4.0', { name: 'x-role' }, "'description' cannot be blank"],
      [
        '4.0',
        { name: 'x-role', description: 'd', permissions: 'CDN:READ' },
        "'permissions' must be a list of strings",
      ],
      [
        '4.0',
        { name: 'x-role', description: 'd', permissions: [1] },
        "'permissions' must be a list of strings",
      ],
      ['4.0', {}, "'name' cannot be blank, 'description' cannot be blank"],
      ['3.0', { name: 'x-role', description: 'd' }, "'privLevel' is required"],
      ['3.0', { name: 'x-role', description: 'd', privLevel: 31 }, "'privLevel' must be no greater than 30"],
      ['3.0', { name: 'x-role', description: 'd', privLevel: -1 }, "'privLevel' must be no less than 0"],
      ['3.0', { name: 'x-role', description: 'd', privLevel: '10' }, "'privLevel' must be an integer"],
      [
        '3.0',
        { name: 'x-role', description: 'd', privLevel: 1, capabilities: {} },
        "'capabilities' must be a list of strings",
      ],
    ])('rejects on %s %j', async (version, body, text) => {
      expectError(await admin.at(version).post('roles', body), 400, text);
      expect(await byName('x-role')).toEqual([]);
    });

    it('rejects malformed JSON and a body that is not an object', async () => {
      const res = await admin.raw('post', 'roles', '{"name":');
      expectMalformedJson(res);
      await expectErrors([
        [admin.raw('post', 'roles', '[1, 2]'), 400, 'the request body must be a JSON object'],
        [admin.at('3.0').raw('post', 'roles', '"role"'), 400, 'the request body must be a JSON object'],
      ]);
    });

    it('does not let a user grant permissions they lack', async () => {
      const name = uniqueName('role');
      const res = await roleCreator.client.post('roles', {
        name,
        description: 'd',
        permissions: ['CDN:READ', 'TYPE:READ', 'TENANT:CREATE'],
      });
      expectError(
        res,
        403,
        'cannot request more than assigned permissions, current user needs TYPE:READ,TENANT:CREATE permissions',
      );
      expect(await byName(name)).toEqual([]);
      const allowed = await roleCreator.client.post('roles', {
        name,
        description: 'd',
        permissions: ['CDN:READ'],
      });
      expectSuccessAlert(allowed, 'role was created.');
    });

    it('needs ROLE:CREATE on 4.0 only', async () => {
      const body = { name: uniqueName('role'), description: 'd', permissions: [] };
      expectError(
        await readOnlyRoles.client.post('roles', body),
        403,
        'missing required Permissions: ROLE:CREATE',
      );
      expect(await byName(body.name)).toEqual([]);
      const v3 = await readOnlyRoles.client.at('3.0').post('roles', { ...body, privLevel: 10 });
      expectSuccessAlert(v3, 'role was created.');
    });
  });

  describe('PUT /roles', () => {
    it('replaces name, description and permissions by name on 4.0', async () => {
      const role = await create(['CDN:READ', 'TYPE:READ']);
      const name = uniqueName('renamed');
      const res = await admin.put(`roles?name=${role.name}`, {
        name,
        description: 'changed',
        permissions: ['TENANT:READ'],
      });
      expectOk(res, 'role was updated.');
      expect(responseOf<RoleV4>(res)).toEqual({
        name,
        description: 'changed',
        permissions: ['TENANT:READ'],
        lastUpdated: expect.stringMatching(TIMESTAMP),
      });
      expect(await byName(role.name)).toEqual([]);
      expect(await byName(name)).toEqual([responseOf<RoleV4>(res)]);
    });

    it('updates by id on 3.0, keeping capabilities when none are given', async () => {
      const role = await create(['CDN:READ']);
      const [{ id }] = await v3ByName(role.name);
      const res = await admin
        .at('3.0')
        .put(`roles?id=${id}`, { name: role.name, description: 'v3', privLevel: 20 });
      expectSuccessAlert(res, 'role was updated.');
      expect(responseOf<RoleV3>(res)).toEqual({
        id,
        name: role.name,
        description: 'v3',
        privLevel: 20,
        capabilities: ['CDN:READ'],
      });
      const replaced = await admin
        .at('3.0')
        .put(`roles?id=${id}`, { name: role.name, description: 'v3', privLevel: 20, capabilities: [] });
      expect(responseOf<RoleV3>(replaced).capabilities).toEqual([]);
    });

    it('never modifies the admin role', async () => {
      const body = { name: 'admin', description: 'x', permissions: [] };
      await expectErrors([
        [admin.put('roles?name=admin', body), 400, 'cannot modify the admin role'],
        [admin.at('3.0').put('roles?id=1', { ...body, privLevel: 30 }), 400, 'cannot modify the admin role'],
      ]);
      expect((await byName('admin'))[0].permissions).toEqual(['ALL']);
    });

    it('answers missing keys and roles', async () => {
      const body = { name: uniqueName('role'), description: 'd', privLevel: 10, permissions: [] };
      await expectErrors([
        [admin.put('roles', body), 400, 'missing key: name'],
        [admin.at('3.0').put('roles', body), 400, 'missing key: id'],
        [admin.at('3.0').put('roles?id=abc', body), 400, 'failed to parse key: id'],
        [admin.put('roles?name=no-such-role', body), 404, 'no such role'],
        [admin.at('3.0').put('roles?id=99999999', body), 404, 'role not found'],
      ]);
    });

    it('refuses a taken name, a bad body and permissions the user lacks, changing nothing', async () => {
      const role = await create(['CDN:READ']);
      const url = `roles?name=${role.name}`;
      await expectErrors([
        [
          admin.put(url, { name: 'operations', description: 'd', permissions: [] }),
          400,
          "role name 'operations' already exists.",
        ],
        [admin.put(url, { name: role.name, permissions: [] }), 400, "'description' cannot be blank"],
      ]);
      const malformed = await admin.raw('put', url, '{');
      expect(malformed.status).toBe(400);
      expectError(
        await roleCreator.client.put(url, { name: role.name, description: 'd', permissions: ['USER:READ'] }),
        403,
        'cannot request more than assigned permissions, current user needs USER:READ permissions',
      );
      expect(await byName(role.name)).toEqual([role]);
    });

    it('needs ROLE:UPDATE on 4.0 only', async () => {
      const role = await create(['CDN:READ']);
      const body = { name: role.name, description: 'changed', permissions: ['CDN:READ'] };
      const url = `roles?name=${role.name}`;
      expectError(
        await readOnlyRoles.client.put(url, body),
        403,
        'missing required Permissions: ROLE:UPDATE',
      );
      expect(await byName(role.name)).toEqual([role]);
      const [{ id }] = await v3ByName(role.name);
      const v3 = await readOnlyRoles.client.at('3.0').put(`roles?id=${id}`, { ...body, privLevel: 30 });
      expectSuccessAlert(v3, 'role was updated.');
    });
  });

  describe('DELETE /roles', () => {
    it('deletes a role by name on 4.0 and by id on 3.0', async () => {
      const role = await create();
      const res = expectOk(await admin.delete(`roles?name=${role.name}`), 'role was deleted.');
      expect(res.body).toEqual({ alerts: [{ text: 'role was deleted.', level: 'success' }] });
      expect(await byName(role.name)).toEqual([]);
      const other = await create();
      const [{ id }] = await v3ByName(other.name);
      expectSuccessAlert(await admin.at('3.0').delete(`roles?id=${id}`), 'role was deleted.');
      expect(await byName(other.name)).toEqual([]);
    });

    it('never deletes the admin role, nor a role with users', async () => {
      await expectErrors([
        [admin.delete('roles?name=admin'), 400, 'cannot delete the admin role'],
        [admin.at('3.0').delete('roles?id=1'), 400, 'cannot delete the admin role'],
      ]);
      const role = await create();
      await createUser(app, admin, role.name);
      await createUser(app, admin, role.name);
      expectError(
        await admin.delete(`roles?name=${role.name}`),
        400,
        'can not delete a role with 2 assigned users',
      );
      expect(await byName(role.name)).toEqual([role]);
    });

    it('answers missing keys and roles', async () => {
      await expectErrors([
        [admin.delete('roles'), 400, 'missing key: name'],
        [admin.at('3.0').delete('roles'), 400, 'missing key: id'],
        [admin.at('3.0').delete('roles?id=x'), 400, 'failed to parse key: id'],
        [admin.delete('roles?name=no-such-role'), 404, 'no role with that key found'],
        [admin.at('3.0').delete('roles?id=99999999'), 404, 'no role with that key found'],
      ]);
    });

    it('needs ROLE:DELETE on 4.0 only', async () => {
      const role = await create();
      const url = `roles?name=${role.name}`;
      expectError(await readOnlyRoles.client.delete(url), 403, 'missing required Permissions: ROLE:DELETE');
      expect(await byName(role.name)).toEqual([role]);
      const [{ id }] = await v3ByName(role.name);
      expectSuccessAlert(await readOnlyRoles.client.at('3.0').delete(`roles?id=${id}`), 'role was deleted.');
    });
  });
});
