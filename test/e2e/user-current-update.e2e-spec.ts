import type { INestApplication } from '@nestjs/common';
import {
  ApiClient,
  createTenant,
  createUser,
  type CreatedUser,
  expectApiHeaders,
  expectError,
  expectMalformedJson,
  expectSuccessAlert,
  responseOf,
  uniqueName,
} from 'test/e2e/support/api';
import { createTestApp } from 'test/e2e/support/app';
import { USER_PASSWORD } from 'test/e2e/support/constants';

type User = Record<string, unknown> & { id: number; username: string; tenantId: number; role: string };

describe('PUT user/current', () => {
  let app: INestApplication;
  let admin: ApiClient;

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

  beforeAll(async () => {
    app = await createTestApp();
    admin = await ApiClient.admin(app);
  });

  afterAll(() => app.close());

  it.each(['4.0', '5.0'])('updates the own profile and answers it on %s', async (version) => {
    const me: CreatedUser = await createUser(app, admin, 'read-only', 1, version);
    const before = await profileOf(me.client);
    const res = await me.client.put(
      'user/current',
      bodyFrom(before, { fullName: 'New Name', city: 'Denver', phoneNumber: '555-0100' }),
    );
    expectSuccessAlert(res, 'User profile was successfully updated');
    expectApiHeaders(res);
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
      changeLogCount: (updated.changeLogCount as number) + 1,
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
    expectError(
      await me.client.put('user/current', bodyFrom(before, { localPasswd: 'short' })),
      400,
      'Password must be greater than 7 characters.',
    );
    expectError(
      await me.client.put('user/current', bodyFrom(before, { role: 'admin' })),
      400,
      'cannot request more than assigned permissions, current user needs ALL permissions',
    );
    expectError(
      await me.client.put('user/current', bodyFrom(before, { role: 'read-only' })),
      400,
      'users cannot update their own role',
    );
    expectError(
      await me.client.put('user/current', bodyFrom(before, { role: 'no-such-role' })),
      404,
      'no such role',
    );
    expectError(
      await me.client.put('user/current', bodyFrom(before, { tenantId: outside.id })),
      404,
      `no such tenant: #${outside.id}`,
    );
    expectError(
      await me.client.put('user/current', bodyFrom(before, { username: other.username })),
      400,
      `username ${other.username} already exists`,
    );
    expectError(
      await me.client.put('user/current', bodyFrom(before, { email: 'not-an-email' })),
      400,
      "'email' must be a valid email address",
    );
    expectError(
      await me.client.put('user/current', bodyFrom(before, { fullName: '' })),
      400,
      "'fullName' cannot be blank",
    );
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

  it('does not exist before 4.0', async () => {
    expect((await admin.at('3.1').put('user/current', {})).status).toBe(404);
  });
});
