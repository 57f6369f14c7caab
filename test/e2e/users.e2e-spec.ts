import type { UserV3, UserV4 } from 'src/modules/users/dto/user.response';
import { ApiClient, responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { RFC3339_FRACTIONAL_TIME } from 'test/e2e/support/times';
import { USER_PASSWORD } from 'test/e2e/support/constants';
import { USER_V4 } from 'test/e2e/support/go-types';
import { useApp } from 'test/e2e/support/suite';

/** A user as `users` answers it: UserV4 on 4.0 and later, UserV3 on 3.x. */
type User = Wire<UserV3 | UserV4>;

const NOT_AUTHORIZED = 'not authorized on this tenant';
const MORE_PRIVILEGED = 'user cannot update a user with a role more privileged than themselves';
/** lib/go-tc UserV4 as answered (no `localPasswd`). */
const V4_KEYS = USER_V4.keys.filter((k) => !USER_V4.optional.includes(k)).sort();

describe('users', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let withoutUserRead: CreatedUser, userReader: CreatedUser;
  let parent: { id: number; name: string };
  let child: { id: number; name: string };
  let sibling: { id: number; name: string };
  let opsInParent: CreatedUser;

  const body = (overrides: Record<string, unknown> = {}) => {
    const username = uniqueName('user', 40).toLowerCase();
    return {
      username,
      localPasswd: USER_PASSWORD,
      confirmLocalPasswd: USER_PASSWORD,
      role: 'read-only',
      tenantId: 1,
      email: `${username}@example.com`,
      fullName: 'A Test User',
      ...overrides,
    };
  };
  const create = async (overrides: Record<string, unknown> = {}, client = admin): Promise<User> => {
    const res = await client.post('users', body(overrides));
    expect(res.status).toBe(200);
    return responseOf<User>(res);
  };
  const byUsername = async (username: string, version = '4.0'): Promise<User[]> =>
    responseOf<User[]>(await admin.at(version).get(`users?username=${encodeURIComponent(username)}`));

  beforeAll(async () => {
    withoutUserRead = await createUser(app, admin, await createRole(admin, ['CDN:READ']));
    userReader = await createUser(app, admin, await createRole(admin, ['USER:READ']));
    parent = await createTenant(admin);
    child = await createTenant(admin, parent.id);
    sibling = await createTenant(admin);
    opsInParent = await createUser(app, admin, 'operations', parent.id);
  });

  describe('GET /users', () => {
    it('lists users by username in the 4.0 shape, without passwords', async () => {
      const res = expectOk(await readOnly.client.get('users'));
      const users = responseOf<User[]>(res);
      const me = users.find((u) => u.username === 'admin');
      expect(Object.keys(me!).sort()).toEqual(V4_KEYS);
      expect(me).toMatchObject({
        role: 'admin',
        tenant: 'root',
        tenantId: 1,
        lastUpdated: expect.stringMatching(RFC3339_FRACTIONAL_TIME),
      });
      const names = users.map((u) => u.username);
      expect(names).toEqual([...names].sort());
    });

    it('counts the change-log entries each user wrote (changeLogCount, 4.0+)', async () => {
      const fresh = await create();
      const countOf = async (username: string) =>
        ((await byUsername(username))[0] as Wire<UserV4>).changeLogCount;
      expect(await countOf(fresh.username)).toBe(0);
      const before = await countOf('admin');
      await create();
      expect(await countOf('admin')).toBe(before + 1);
      expect((await byUsername(fresh.username, '3.0'))[0]).not.toHaveProperty('changeLogCount');
    });

    it('names the role by id and rolename on 3.0', async () => {
      const [user] = await byUsername(readOnly.username, '3.0');
      expect(user).toMatchObject({ id: readOnly.id, role: 3, rolename: 'read-only', tenant: 'root' });
      expect(user).not.toHaveProperty('ucdn');
      expect(user).not.toHaveProperty('lastAuthenticated');
    });

    it('filters by id, username, tenant and role', async () => {
      const inChild = await create({ tenantId: child.id, role: 'portal' });
      expect((await byUsername(inChild.username)).map((u) => u.id)).toEqual([inChild.id]);
      const ids = (path: string, version = '4.0') =>
        admin
          .at(version)
          .get(path)
          .then((r) => responseOf<User[]>(r).map((u) => u.id));
      expect(await ids(`users?id=${inChild.id}`)).toEqual([inChild.id]);
      expect(await ids(`users?tenant=${child.name}`)).toEqual([inChild.id]);
      expect(await ids(`users?tenant=${child.name}&role=portal`)).toEqual([inChild.id]);
      expect(await ids(`users?tenant=${child.name}&role=5`, '3.0')).toEqual([inChild.id]);
      expect(await ids(`users?tenant=${child.name}&role=read-only`)).toEqual([]);
      expectError(await admin.get('users?id=me'), 400, 'id cannot parse to integer');
      expect(await ids(`users?tenant=${child.id}`)).toEqual([]);
      expectError(await admin.at('3.0').get('users?role=admin'), 400, 'role cannot parse to integer');
    });

    it('orders and pages in SQL', async () => {
      const all = responseOf<User[]>(await admin.get('users?orderby=id'));
      expect(responseOf<User[]>(await admin.get('users?orderby=id&limit=2&offset=1'))).toEqual(
        all.slice(1, 3),
      );
      const desc = responseOf<User[]>(await admin.get('users?sortOrder=desc')).map((u) => u.username);
      expect(desc).toEqual([...desc].sort().reverse());
    });

    it('shows only the users whose tenant is within reach', async () => {
      const inChild = await create({ tenantId: child.id });
      const inSibling = await create({ tenantId: sibling.id });
      const ids = responseOf<User[]>(await opsInParent.client.get('users')).map((u) => u.id);
      expect(ids).toEqual(expect.arrayContaining([opsInParent.id, inChild.id]));
      expect(ids).not.toContain(inSibling.id);
      expect(ids).not.toContain(readOnly.id);
    });

    it('needs USER:READ on 4.0 only', async () => {
      expectError(await withoutUserRead.client.get('users'), 403, 'missing required Permissions: USER:READ');
      expect((await withoutUserRead.client.at('3.0').get('users')).status).toBe(200);
    });
  });

  describe('GET /users/{id}', () => {
    it('answers an array of one', async () => {
      const res = expectOk(await readOnly.client.get(`users/${readOnly.id}`));
      expect(responseOf<User[]>(res)).toEqual(await byUsername(readOnly.username));
    });

    it('answers 404 for a missing user or one out of reach, 400 for a bad id', async () => {
      await expectErrors([
        [admin.get('users/99999999'), 404, 'no user found with this id'],
        [opsInParent.client.get(`users/${readOnly.id}`), 404, 'no user found with this id'],
        [admin.get('users/abc'), 400, 'failed to parse key: id'],
      ]);
    });

    it('needs USER:READ on 4.0 only', async () => {
      expectError(
        await withoutUserRead.client.get(`users/${readOnly.id}`),
        403,
        'missing required Permissions: USER:READ',
      );
      expect((await withoutUserRead.client.at('3.0').get(`users/${readOnly.id}`)).status).toBe(200);
    });
  });

  describe('POST /users', () => {
    it('creates a user who can then sign in (4.0, role by name)', async () => {
      const request = body({
        role: 'operations',
        tenantId: parent.id,
        city: 'Denver',
        uid: 42,
        ucdn: 'ucdn1',
      });
      const res = expectOk(await admin.post('users', request), 'user was created.');
      const user = responseOf<User>(res);
      expect(Object.keys(user).sort()).toEqual(V4_KEYS);
      expect(user).toMatchObject({
        id: expect.any(Number),
        username: request.username,
        email: request.email,
        fullName: 'A Test User',
        role: 'operations',
        tenantId: parent.id,
        tenant: parent.name,
        city: 'Denver',
        uid: 42,
        ucdn: 'ucdn1',
        company: null,
        newUser: false,
        lastUpdated: expect.stringMatching(RFC3339_FRACTIONAL_TIME),
      });
      expect(await byUsername(request.username)).toEqual([user]);
      await expect(ApiClient.login(app, request.username, USER_PASSWORD)).resolves.toBeInstanceOf(ApiClient);
    });

    it('takes the role by id on 3.0', async () => {
      const res = await admin.at('3.0').post('users', body({ role: 5 }));
      expectSuccessAlert(res, 'user was created.');
      expect(responseOf<User>(res)).toMatchObject({ role: 5, rolename: 'portal' });
      await expectErrors([
        [admin.at('3.0').post('users', body({ role: 'portal' })), 400, "'role' must be an integer"],
        [admin.post('users', body({ role: 5 })), 400, "'role' must be a string"],
      ]);
    });

    it.each([
      [{ email: undefined }, "'email' cannot be blank"],
      [{ email: 'not-an-address' }, "'email' must be a valid email address"],
      [{ fullName: '' }, "'fullName' cannot be blank"],
      [{ role: undefined }, "'role' cannot be blank"],
      [{ tenantId: undefined }, "'tenantId' cannot be blank"],
      [{ tenantId: 'root' }, "'tenantId' must be an integer"],
      [
        { username: undefined, email: 'x' },
        "'username' cannot be blank, 'email' must be a valid email address",
      ],
      [{ uid: 'one' }, "'uid' must be an integer"],
      [{ localPasswd: undefined }, "'localPasswd' cannot be blank"],
      [{ localPasswd: 'short', confirmLocalPasswd: 'short' }, 'Password must be greater than 7 characters.'],
      [{ localPasswd: 'password', confirmLocalPasswd: 'password' }, 'Password is too common.'],
      [
        { localPasswd: USER_PASSWORD, confirmLocalPasswd: 'something-else' },
        "'confirmLocalPasswd' must match 'localPasswd'",
      ],
      [{ localPasswd: 42 }, "'localPasswd' must be a string"],
    ])('rejects %j, writing nothing', async (overrides, text) => {
      const request = body(overrides);
      expectError(await admin.post('users', request), 400, text);
      if (typeof request.username === 'string') {
        expect(await byUsername(request.username)).toEqual([]);
      }
    });

    it.each(['4.0', '5.0'])(
      'creates a user without confirmLocalPasswd on %s, as the Go client sends it (D50a)',
      async (version) => {
        const { confirmLocalPasswd: _unused, ...request } = body();
        const res = await admin.at(version).post('users', request);
        expect(res.status).toBe(200);
        expect(await byUsername(request.username)).toHaveLength(1);
        const signedIn = await ApiClient.login(app, request.username, USER_PASSWORD);
        expect(responseOf<User>(await signedIn.get('user/current')).username).toBe(request.username);
      },
    );

    it('refuses a password equal to the user name', async () => {
      const username = uniqueName('samename', 40);
      const res = await admin.post(
        'users',
        body({ username, localPasswd: username, confirmLocalPasswd: username }),
      );
      expectError(res, 400, 'Username and password cannot be the same.');
    });

    it('answers 404 for an unknown role or tenant', async () => {
      const request = body({ role: 'no-such-role' });
      await expectErrors([
        [admin.post('users', request), 404, 'role not found'],
        [admin.at('3.0').post('users', body({ role: 99999 })), 404, 'role not found'],
      ]);
      const unknownTenant = body({ tenantId: 99999999 });
      expectError(await admin.post('users', unknownTenant), 404, 'tenant not found');
      expect(await byUsername(request.username)).toEqual([]);
      expect(await byUsername(unknownTenant.username)).toEqual([]);
    });

    it('refuses a taken user name or email', async () => {
      const existing = await create();
      expectError(
        await admin.post('users', body({ username: existing.username })),
        400,
        `tm_user username '${existing.username}' already exists.`,
      );
      const sameEmail = body({ email: existing.email });
      expectError(
        await admin.post('users', sameEmail),
        400,
        `tm_user email '${String(existing.email)}' already exists.`,
      );
      expect(await byUsername(sameEmail.username)).toEqual([]);
    });

    it('keeps users within the creator tenancy and privilege', async () => {
      const inChild = await create({ tenantId: child.id, role: 'portal' }, opsInParent.client);
      expect(inChild.tenant).toBe(child.name);
      const outside = body({ tenantId: sibling.id });
      await expectErrors([
        [opsInParent.client.post('users', outside), 403, NOT_AUTHORIZED],
        [opsInParent.client.post('users', body({ tenantId: 1 })), 403, NOT_AUTHORIZED],
      ]);
      const tooStrong = body({ tenantId: parent.id, role: 'admin' });
      expectError(await opsInParent.client.post('users', tooStrong), 403, MORE_PRIVILEGED);
      expect(await byUsername(outside.username)).toEqual([]);
      expect(await byUsername(tooStrong.username)).toEqual([]);
    });

    it('rejects malformed JSON and a body that is not an object', async () => {
      const res = await admin.raw('post', 'users', '{"username": "x"');
      expectMalformedJson(res);
      await expectErrors([
        [admin.raw('post', 'users', '[]'), 400, 'the request body must be a JSON object'],
        [admin.at('3.0').raw('put', 'users/1', '"user"'), 400, 'the request body must be a JSON object'],
      ]);
    });

    it('needs USER:CREATE on 4.0 only', async () => {
      const request = body();
      expectError(
        await userReader.client.post('users', request),
        403,
        'missing required Permissions: USER:CREATE',
      );
      expect(await byUsername(request.username)).toEqual([]);
      expectSuccessAlert(
        await userReader.client.at('3.0').post('users', { ...request, role: 3 }),
        'user was created.',
      );
    });
  });

  describe('PUT /users/{id}', () => {
    it('updates the user, keeping the password when none is given', async () => {
      const user = await create();
      const {
        localPasswd: _p,
        confirmLocalPasswd: _c,
        ...rest
      } = body({ username: user.username, email: user.email });
      const res = await admin.put(`users/${user.id}`, {
        ...rest,
        fullName: 'Renamed',
        role: 'portal',
        tenantId: child.id,
      });
      expectOk(res, 'user was updated.');
      const updated = responseOf<User>(res);
      expect(updated).toMatchObject({
        id: user.id,
        fullName: 'Renamed',
        role: 'portal',
        tenantId: child.id,
        tenant: child.name,
      });
      expect(await byUsername(user.username)).toEqual([updated]);
      await expect(ApiClient.login(app, user.username, USER_PASSWORD)).resolves.toBeInstanceOf(ApiClient);
    });

    it('changes the password when one is given, with the same rules', async () => {
      const user = await create();
      const url = `users/${user.id}`;
      const base = { ...body({ username: user.username, email: user.email }) };
      expectError(
        await admin.put(url, { ...base, localPasswd: 'tiny', confirmLocalPasswd: 'tiny' }),
        400,
        'Password must be greater than 7 characters.',
      );
      const fresh = 'another-unusual-password-7';
      expectSuccessAlert(
        await admin.put(url, { ...base, localPasswd: fresh, confirmLocalPasswd: fresh }),
        'user was updated.',
      );
      await expect(ApiClient.login(app, user.username, fresh)).resolves.toBeInstanceOf(ApiClient);
      await expect(ApiClient.login(app, user.username, USER_PASSWORD)).rejects.toThrow(/401/);
    });

    it('takes the role by id on 3.0', async () => {
      const user = await create();
      const res = await admin
        .at('3.0')
        .put(`users/${user.id}`, { ...body({ username: user.username, email: user.email }), role: 2 });
      expect(responseOf<User>(res)).toMatchObject({ role: 2, rolename: 'operations' });
    });

    it('answers 404 for a missing user or role, 400 for a bad id or body', async () => {
      const user = await create();
      const request = body({ username: user.username, email: user.email });
      await expectErrors([
        [admin.put('users/99999999', body()), 404, 'no user found with this id'],
        [admin.put('users/abc', body()), 400, 'failed to parse key: id'],
        [admin.put(`users/${user.id}`, { ...request, role: 'no-such-role' }), 404, 'role not found'],
        [admin.put(`users/${user.id}`, { ...request, tenantId: 99999999 }), 404, 'tenant not found'],
        [
          admin.put(`users/${user.id}`, { ...request, email: 'nope' }),
          400,
          "'email' must be a valid email address",
        ],
      ]);
      expectError(
        await admin.put(`users/${user.id}`, { ...request, username: readOnly.username }),
        400,
        `tm_user username '${readOnly.username}' already exists.`,
      );
      const malformed = await admin.raw('put', `users/${user.id}`, '{');
      expect(malformed.status).toBe(400);
      expect(await byUsername(user.username)).toEqual([user]);
    });

    it('needs the current and the new tenant within reach', async () => {
      const inSibling = await create({ tenantId: sibling.id });
      const inChild = await create({ tenantId: child.id });
      await expectErrors([
        [
          opsInParent.client.put(
            `users/${inSibling.id}`,
            body({ username: inSibling.username, email: inSibling.email, tenantId: child.id }),
          ),
          403,
          NOT_AUTHORIZED,
        ],
        [
          opsInParent.client.put(
            `users/${inChild.id}`,
            body({ username: inChild.username, email: inChild.email, tenantId: sibling.id }),
          ),
          403,
          NOT_AUTHORIZED,
        ],
      ]);
      expect(await byUsername(inChild.username)).toEqual([inChild]);
      expect(await byUsername(inSibling.username)).toEqual([inSibling]);
      const moved = await opsInParent.client.put(
        `users/${inChild.id}`,
        body({ username: inChild.username, email: inChild.email, tenantId: parent.id }),
      );
      expect(responseOf<User>(moved).tenantId).toBe(parent.id);
    });

    it('refuses a more privileged role, touching a more privileged user, and changing one’s own role', async () => {
      const inParent = await create({ tenantId: parent.id });
      const request = body({ username: inParent.username, email: inParent.email, tenantId: parent.id });
      expectError(
        await opsInParent.client.put(`users/${inParent.id}`, { ...request, role: 'admin' }),
        403,
        MORE_PRIVILEGED,
      );
      const strong = await create({ tenantId: parent.id, role: 'admin' });
      expectError(
        await opsInParent.client.put(
          `users/${strong.id}`,
          body({ username: strong.username, email: strong.email, tenantId: parent.id }),
        ),
        403,
        MORE_PRIVILEGED,
      );
      const self = body({
        username: opsInParent.username,
        email: `${opsInParent.username}@example.com`,
        tenantId: parent.id,
      });
      expectError(
        await opsInParent.client.put(`users/${opsInParent.id}`, { ...self, role: 'portal' }),
        400,
        'users cannot update their own role',
      );
      expect((await byUsername(inParent.username))[0].role).toBe('read-only');
      expect((await byUsername(strong.username))[0].role).toBe('admin');
      const own = await opsInParent.client.put(`users/${opsInParent.id}`, {
        ...self,
        role: 'operations',
        fullName: 'Me',
      });
      expectSuccessAlert(own, 'user was updated.');
    });

    it('needs USER:UPDATE on 4.0 only', async () => {
      const user = await create();
      const request = body({ username: user.username, email: user.email, fullName: 'Changed' });
      const url = `users/${user.id}`;
      expectError(
        await userReader.client.put(url, request),
        403,
        'missing required Permissions: USER:UPDATE',
      );
      expect(await byUsername(user.username)).toEqual([user]);
      expectSuccessAlert(
        await userReader.client.at('3.0').put(url, { ...request, role: 3 }),
        'user was updated.',
      );
    });

    it('has no DELETE', async () => {
      const res = await admin.delete(`users/${readOnly.id}`);
      expectError(res, 404, `The requested path '/api/4.0/users/${readOnly.id}' does not exist.`);
    });
  });
});
