import type { CurrentUserV3Response, UserV3, UserV4 } from 'src/modules/users/dto/user.response';
import fc from 'fast-check';
import { ApiClient, responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';

import { CUSTOM_TIME } from 'test/e2e/support/times';
import { USER_CURRENT_V30 } from 'test/e2e/support/go-types';
import { USER_PASSWORD } from 'test/e2e/support/constants';
import { useApp } from 'test/e2e/support/suite';

type User = Wire<UserV4>;

describe('PUT user/current', () => {
  const { app, admin } = useApp();

  /** The body PUT user/current takes: the user's own profile as GET user/current shows it. */
  const profileOf = async (client: ApiClient): Promise<User> =>
    responseOf<User>(await client.get('user/current'));
  const bodyFrom = (user: User, changes: Record<string, unknown> = {}) => ({
    username: user.username,
    email: user.email,
    fullName: user.fullName,
    role: user.role,
    tenantId: user.tenantId,
    ...changes,
  });

  it.each(['4.0', '5.0'])('updates the own profile and answers it on %s', async (version) => {
    const me: CreatedUser = await createUser(app, admin, 'read-only', 1, version);
    const before = await profileOf(me.client);
    const res = await me.client.put(
      'user/current',
      bodyFrom(before, { fullName: 'New Name', city: 'Denver', phoneNumber: '555-0100' }),
    );
    expectOk(res, 'User profile was successfully updated');
    const updated = responseOf<User>(res);
    expect(updated).toEqual({
      ...before,
      fullName: 'New Name',
      city: 'Denver',
      phoneNumber: '555-0100',
      newUser: false,
      lastUpdated: expect.any(String),
    });
    // The update itself is then in the change log, written after the answer was built.
    expect(await profileOf(me.client)).toEqual({
      ...updated,
      changeLogCount: updated.changeLogCount + 1,
    });
  });

  it('changes the password (the sessions end) and the new one signs in', async () => {
    const me = await createUser(app, admin, 'operations');
    const newPassword = 'another-long-unusual-password-7';
    const res = await me.client.put(
      'user/current',
      bodyFrom(await profileOf(me.client), { localPasswd: newPassword }),
    );
    expect(res.status).toBe(200);
    await expect(ApiClient.login(app, me.username, USER_PASSWORD)).rejects.toThrow(/401/);
    const again = await ApiClient.login(app, me.username, newPassword);
    expect(responseOf<User>(await again.get('user/current')).username).toBe(me.username);
  });

  it('refuses a bad password, another role, a taken name and a tenant out of reach, changing nothing', async () => {
    const tenant = await createTenant(admin);
    const me = await createUser(app, admin, 'operations', tenant.id);
    const other = await createUser(app, admin, 'read-only');
    const before = await profileOf(me.client);
    const outside = await createTenant(admin);
    await expectErrors([
      [
        me.client.put('user/current', bodyFrom(before, { localPasswd: 'short' })),
        400,
        'Password must be greater than 7 characters.',
      ],
      [
        me.client.put('user/current', bodyFrom(before, { role: 'admin' })),
        400,
        'cannot request more than assigned permissions, current user needs ALL permissions',
      ],
      [
        me.client.put('user/current', bodyFrom(before, { role: 'read-only' })),
        400,
        'users cannot update their own role',
      ],
      [me.client.put('user/current', bodyFrom(before, { role: 'no-such-role' })), 404, 'no such role'],
      [
        me.client.put('user/current', bodyFrom(before, { tenantId: outside.id })),
        404,
        `no such tenant: #${outside.id}`,
      ],
      [
        me.client.put('user/current', bodyFrom(before, { username: other.username })),
        400,
        `username ${other.username} already exists`,
      ],
      [
        me.client.put('user/current', bodyFrom(before, { email: 'not-an-email' })),
        400,
        "'email' must be a valid email address",
      ],
      [me.client.put('user/current', bodyFrom(before, { fullName: '' })), 400, "'fullName' cannot be blank"],
    ]);
    expectMalformedJson(await me.client.raw('put', 'user/current', '{"username":'));
    expect(await profileOf(me.client)).toEqual(before);
  });

  it('refuses an update of a profile changed since If-Unmodified-Since (412)', async () => {
    const me = await createUser(app, admin, 'read-only');
    const before = await profileOf(me.client);
    const res = await me.client
      .put('user/current', bodyFrom(before, { fullName: 'Too Late' }))
      .set('If-Unmodified-Since', 'Mon, 01 Jan 2001 00:00:00 GMT');
    expectError(res, 412, 'resource was modified since the time specified by the request headers');
    expect(await profileOf(me.client)).toEqual(before);
  });

  it('renames the user', async () => {
    const me = await createUser(app, admin, 'read-only');
    const username = uniqueName('renamed').toLowerCase();
    const res = await me.client.put('user/current', bodyFrom(await profileOf(me.client), { username }));
    expect(responseOf<User>(res).username).toBe(username);
  });
});

describe('PUT user/current on 3.x', () => {
  const { app, admin } = useApp();

  /** GET user/current on 3.x: the 3.x user and `localUser`, which that route adds. */
  type CurrentV3 = Wire<UserV3> & { localUser: boolean };
  const profileOf = async (client: ApiClient): Promise<CurrentV3> =>
    responseOf<CurrentV3>(await client.get('user/current'));
  /** The 3.x answer: the original's `tc.User` (`roleName`, `registrationSent`, no `localUser`). */
  const answerFrom = ({
    localUser: _localUser,
    rolename,
    ...profile
  }: CurrentV3): Record<string, unknown> => ({
    ...profile,
    roleName: rolename,
    registrationSent: null,
  });
  const SESSION_ENDED = 'session ended - unauthorized, please log in';

  it.each(['3.0', '3.1'])(
    'merges the given fields into the profile and answers it on %s',
    async (version) => {
      const me = await createUser(app, admin, 'read-only', 1, version);
      const before = await profileOf(me.client);
      expect(before).toMatchObject({ role: 3, rolename: 'read-only', localUser: true });
      const res = await me.client.put('user/current', {
        user: { fullName: 'New Name', city: 'Denver', phoneNumber: '555-0100', unknownField: 1 },
      });
      expectOk(res, 'User profile was successfully updated');
      const updated = responseOf<Wire<CurrentUserV3Response>>(res);
      expect(updated).toEqual({
        ...answerFrom(before),
        fullName: 'New Name',
        city: 'Denver',
        phoneNumber: '555-0100',
        newUser: false,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      expect(Object.keys(updated).sort()).toEqual([...USER_CURRENT_V30.keys].sort());
      expect(await profileOf(me.client)).toEqual({
        ...before,
        fullName: 'New Name',
        city: 'Denver',
        phoneNumber: '555-0100',
        newUser: false,
        lastUpdated: updated.lastUpdated,
      });
      // null clears an optional field; what is absent keeps its value; the 4.x form reads the same row.
      const cleared = responseOf<Wire<CurrentUserV3Response>>(
        await me.client.put('user/current', {
          user: { city: null, gid: 7, id: me.id, role: 3, tenantId: 1 },
        }),
      );
      expect(cleared).toMatchObject({ city: null, gid: 7, fullName: 'New Name', phoneNumber: '555-0100' });
      expect(responseOf<User>(await me.client.at('4.0').get('user/current'))).toMatchObject({
        city: null,
        gid: 7,
        fullName: 'New Name',
        role: 'read-only',
      });
    },
  );

  it('changes the password (the sessions end) and the new one signs in; an empty one changes nothing', async () => {
    const me = await createUser(app, admin, 'operations', 1, '3.1');
    expect((await me.client.put('user/current', { user: { localPasswd: '' } })).status).toBe(200);
    expect((await me.client.put('user/current', { user: { localPasswd: null } })).status).toBe(200);
    expect((await me.client.get('user/current')).status).toBe(200);
    const newPassword = 'another-long-unusual-password-8';
    // The confirmation has no effect, as in the original: it need not match.
    const res = await me.client.put('user/current', {
      user: { localPasswd: newPassword, confirmLocalPasswd: 'something-else' },
    });
    expectSuccessAlert(res, 'User profile was successfully updated');
    expect(responseOf<Wire<CurrentUserV3Response>>(res)).not.toHaveProperty('localPasswd');
    expectError(await me.client.get('user/current'), 401, SESSION_ENDED);
    await expect(ApiClient.login(app, me.username, USER_PASSWORD, '3.1')).rejects.toThrow(/401/);
    const again = await ApiClient.login(app, me.username, newPassword, '3.1');
    expect((await profileOf(again)).username).toBe(me.username);
  });

  it('lowers the own role (the sessions end), as the original allows on 3.x', async () => {
    const me = await createUser(app, admin, 'operations', 1, '3.0');
    const res = await me.client.put('user/current', { user: { role: 3 } });
    expectSuccessAlert(res, 'User profile was successfully updated');
    expect(responseOf<Wire<CurrentUserV3Response>>(res)).toMatchObject({ role: 3, roleName: 'read-only' });
    expectError(await me.client.get('user/current'), 401, SESSION_ENDED);
    const again = await ApiClient.login(app, me.username, USER_PASSWORD, '3.0');
    expect(await profileOf(again)).toMatchObject({ role: 3, rolename: 'read-only' });
  });

  it('renames the user and moves it to a tenant within reach', async () => {
    const tenant = await createTenant(admin);
    const child = await createTenant(admin, tenant.id);
    const me = await createUser(app, admin, 'read-only', tenant.id, '3.0');
    const username = uniqueName('renamed').toLowerCase();
    const res = await me.client.put('user/current', { user: { username, tenantId: child.id } });
    expect(responseOf<Wire<CurrentUserV3Response>>(res)).toMatchObject({
      username,
      tenantId: child.id,
      tenant: child.name,
    });
  });

  it('refuses each bad body, password, role, tenant and name with the original texts, writing nothing', async () => {
    const tenant = await createTenant(admin);
    const me = await createUser(app, admin, 'read-only', tenant.id, '3.1');
    const other = await createUser(app, admin, 'read-only');
    const outside = await createTenant(admin);
    const richer = responseOf<{ id: number }>(
      await admin.at('3.0').post('roles', {
        name: uniqueName('role'),
        description: 'level 10, more permissions',
        privLevel: 10,
        capabilities: ['CDN:UPDATE'],
      }),
    ).id;
    const before = await profileOf(me.client);
    const put = (body: unknown) => me.client.put('user/current', body);
    const parse = (text: string) => `couldn't parse request: ${text}`;

    expectError(await me.client.put('user/current'), 400, parse('EOF'));
    expectError(await put({}), 400, "missing required 'user' object");
    expectError(await put({ user: null }), 400, "missing required 'user' object");
    expectError(await put([]), 400, 'the request body must be a JSON object');
    expectError(
      await put({ user: 5 }),
      400,
      parse(
        'json: cannot unmarshal number into Go struct field CurrentUserUpdateRequest.user of type tc.CurrentUserUpdateRequestUser',
      ),
    );
    expectError(
      await put({ user: { localPasswd: 12345678 } }),
      400,
      parse(
        'json: cannot unmarshal number into Go struct field CurrentUserUpdateRequestUser.user.localPasswd of type string',
      ),
    );
    expectError(
      await put({ user: { email: '', fullName: null, role: null, tenantId: null, username: '' } }),
      400,
      parse(
        "email: cannot be null or an empty string, fullName: cannot be set to 'null' or empty string, " +
          'role: cannot be null, tenantID: cannot be null, username: cannot be null or empty string',
      ),
    );
    expectError(await put({ user: { email: 'not-an-email' } }), 400, parse('must be a valid email address'));
    expectError(
      await put({ user: { city: 5, gid: 'x', role: 2 ** 31, tenantId: true, uid: 1.5 } }),
      400,
      parse(
        'city: json: cannot unmarshal number into Go value of type string, ' +
          'gid: json: cannot unmarshal string into Go value of type int, ' +
          'role: must be no greater than 2147483647, ' +
          'tenantID: json: cannot unmarshal bool into Go value of type int, ' +
          'uid: json: cannot unmarshal number 1.5 into Go value of type int',
      ),
    );
    expectError(
      await put({ user: { city: 'x'.repeat(129) } }),
      400,
      parse('city: the length must be no more than 128'),
    );
    expectError(await put({ user: { id: me.id + 1 } }), 400, parse('id: cannot change user id'));
    expectError(await put({ user: { id: null } }), 400, parse('id: cannot change user id'));
    expectError(
      await put({ user: { localPasswd: 'short' } }),
      400,
      'Password must be greater than 7 characters.',
    );
    expectError(await put({ user: { localPasswd: 'password' } }), 400, 'Password is too common.');
    expectError(await put({ user: { role: 999999 } }), 404, 'role: no such role: 999999');
    expectError(
      await put({ user: { role: 2 } }),
      403,
      "role: cannot have greater permissions than user's current role",
    );
    expectError(
      await put({ user: { role: richer } }),
      400,
      'cannot request more than assigned permissions, current user needs CDN:UPDATE permissions',
    );
    expectError(await put({ user: { tenantId: outside.id } }), 404, 'no such tenant');
    expectError(await put({ user: { tenantId: 999999 } }), 404, 'no such tenant');
    expectError(
      await put({ user: { username: other.username } }),
      409,
      `username ${other.username} already exists`,
    );
    expectError(
      await put({ user: { email: `${other.username}@example.com` } }),
      400,
      `tm_user email '${other.username}@example.com' already exists.`,
    );
    expectMalformedJson(await me.client.raw('put', 'user/current', '{"user":'));
    // Nothing was written, and the session did not end.
    expect(await profileOf(me.client)).toEqual(before);
  });

  it('refuses an update of a profile changed since If-Unmodified-Since (412)', async () => {
    const me = await createUser(app, admin, 'read-only', 1, '3.0');
    const before = await profileOf(me.client);
    const res = await me.client
      .put('user/current', { user: { fullName: 'Too Late' } })
      .set('If-Unmodified-Since', 'Mon, 01 Jan 2001 00:00:00 GMT');
    expectError(res, 412, 'resource was modified since the time specified by the request headers');
    expect(await profileOf(me.client)).toEqual(before);
  });

  it('answers generated bodies with a 200 or a 4xx alert that writes nothing, never a 5xx', async () => {
    const me = await createUser(app, admin, 'read-only', 1, '3.1');
    let client = me.client;
    let username = me.username;
    const stored = async () => responseOf<User>(await admin.get(`users/${me.id}`));
    const FIELDS = [
      'addressLine1',
      'city',
      'email',
      'fullName',
      'gid',
      'id',
      'phoneNumber',
      'publicSshKey',
      'role',
      'stateOrProvince',
      'tenantId',
      'uid',
      'username',
      'confirmLocalPasswd',
    ];
    const scalar = fc.oneof(
      fc.integer(),
      fc.constantFrom(0, -1, 1, 2, 3, 4, me.id, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1.5, 1e300),
      fc.string({ maxLength: 12 }),
      fc.constantFrom('', 'a@b.example', 'x'.repeat(300), 'ü€😀'),
      fc.boolean(),
      fc.constant(null),
    );
    const field = fc.oneof(scalar, fc.array(scalar, { maxLength: 2 }), fc.dictionary(fc.string(), scalar));
    const user = fc.dictionary(fc.constantFrom(...FIELDS), field, { maxKeys: 5 });
    await fc.assert(
      fc.asyncProperty(fc.oneof(user, scalar), async (sent) => {
        const before = await stored();
        const res = await client.put('user/current', { user: sent });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect((res.body as { alerts: { level: string }[] }).alerts[0].level).toBe('error');
          expect(await stored()).toEqual(before);
        } else {
          // A new role or name: sign in again as whoever the user now is.
          username = responseOf<Wire<CurrentUserV3Response>>(res).username;
          client = await ApiClient.login(app, username, USER_PASSWORD, '3.1');
        }
      }),
      { numRuns: 40 },
    );
  });

  it.each(['3.0', '3.1'])('needs a session on %s (401)', async (version) => {
    const res = await ApiClient.anonymous(app, version).put('user/current', { user: { fullName: 'x' } });
    expectError(res, 401, 'unauthorized, please log in.');
  });
});
