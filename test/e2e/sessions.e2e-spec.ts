import request, { type Response } from 'supertest';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { ApiClient, responseOf, sessionCookieOf, uniqueName } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { USER_PASSWORD } from 'test/e2e/support/constants';
import { useApp } from 'test/e2e/support/suite';

const SESSION_ENDED = 'session ended - unauthorized, please log in';
const NEW_PASSWORD = 'a-new-and-unusual-password-43';

/** The Set-Cookie headers of a response. */
const setCookies = (res: Response): string[] => ([] as string[]).concat(res.headers['set-cookie'] ?? []);

/**
 * Sessions are signed cookies carrying the user's session generation and the sign-in's own session
 * id. Signing out ends that session alone (its id is recorded as ended); signing out everywhere,
 * changing a password or a role raises the generation, so that every cookie issued before stops
 * working. Every authenticated response, success or failure, renews the cookie.
 */
describe('sessions', () => {
  const { app, admin } = useApp();
  let server: App;

  beforeAll(() => {
    server = app.getHttpServer() as App;
  });

  const current = (cookie: string | undefined) =>
    request(server)
      .get('/api/4.0/user/current')
      .set('Cookie', cookie ?? '');

  /** PUT users/{id} as the admin with the user's own fields and `changes`. */
  const updateUser = (user: CreatedUser, changes: Record<string, unknown>, by = admin) =>
    by.put(`users/${user.id}`, {
      username: user.username,
      email: `${user.username}@example.com`,
      fullName: 'Test user',
      role: 'read-only',
      tenantId: 1,
      ...changes,
    });

  describe('end', () => {
    it('for the session signed out only: its renewed cookies too, not the user’s other sign-ins', async () => {
      const user = await createUser(app, admin, 'read-only');
      const otherDevice = await ApiClient.login(app, user.username, USER_PASSWORD);
      const renewed = sessionCookieOf(await user.client.get('cdns'));
      for (const cookie of [user.client.cookie, otherDevice.cookie, renewed]) {
        expect((await current(cookie)).status).toBe(200);
      }
      const res = await user.client.post('user/logout');
      expectSuccessAlert(res, 'You are logged out.');
      expect(setCookies(res).filter((c) => c.startsWith('mojolicious='))).toEqual([
        expect.stringMatching(/^mojolicious=;.*Expires=Thu, 01 Jan 1970 00:00:00 GMT/),
      ]);
      for (const cookie of [user.client.cookie, renewed]) {
        expectError(await current(cookie), 401, SESSION_ENDED);
      }
      expect(responseOf<{ username: string }>(await otherDevice.get('user/current')).username).toBe(
        user.username,
      );
      // Signing out again with an ended session's cookie is refused; signing in again works.
      expectError(await user.client.post('user/logout'), 401, SESSION_ENDED);
      const again = await ApiClient.login(app, user.username, USER_PASSWORD);
      expect(responseOf<{ username: string }>(await again.get('user/current')).username).toBe(user.username);
      expect((await otherDevice.get('user/current')).status).toBe(200);
    });

    it.each(['3.0', '4.0', '5.0'])(
      'for every session of the user with logout?all=true (an extension) on %s',
      async (version) => {
        const user = await createUser(app, admin, 'read-only');
        const otherDevice = await ApiClient.login(app, user.username, USER_PASSWORD);
        expectSuccessAlert(await user.client.at(version).post('user/logout?all=true'), 'You are logged out.');
        for (const cookie of [user.client.cookie, otherDevice.cookie]) {
          expectError(await current(cookie), 401, SESSION_ENDED);
        }
        const again = await ApiClient.login(app, user.username, USER_PASSWORD);
        expect((await again.get('user/current')).status).toBe(200);
      },
    );

    it('for this session only with logout?all=false; another value of all is a 400 that ends nothing', async () => {
      const user = await createUser(app, admin, 'read-only');
      const otherDevice = await ApiClient.login(app, user.username, USER_PASSWORD);
      for (const value of ['yes', '', 'everywhere']) {
        expectError(
          await user.client.post(`user/logout?all=${value}`),
          400,
          "query parameter 'all' must be true or false",
        );
      }
      expect((await user.client.get('user/current')).status).toBe(200);
      expectSuccessAlert(await user.client.post('user/logout?all=false'), 'You are logged out.');
      expectError(await user.client.get('user/current'), 401, SESSION_ENDED);
      expect((await otherDevice.get('user/current')).status).toBe(200);
    });

    it('and the records of ended sessions whose cookies have all expired are pruned by the next sign-out', async () => {
      const dataSource = app.get(DataSource);
      const user = await createUser(app, admin, 'read-only');
      const past = Math.floor(Date.now() / 1000) - 1;
      await dataSource.query('INSERT INTO ended_session (session_id, tm_user_id, expires) VALUES (?, ?, ?)', [
        'expired-session-record',
        user.id,
        past,
      ]);
      const ended = async () =>
        (
          await dataSource.query<{ session_id: string; expires: number | string }[]>(
            'SELECT session_id, expires FROM ended_session WHERE tm_user_id = ?',
            [user.id],
          )
        ).map((row) => ({ sessionId: row.session_id, live: Number(row.expires) > past }));
      expect(await ended()).toEqual([{ sessionId: 'expired-session-record', live: false }]);
      expectSuccessAlert(await user.client.post('user/logout'), 'You are logged out.');
      // The expired record is gone; the new one is kept past the session's hour.
      expect(await ended()).toEqual([{ sessionId: expect.stringMatching(/^[\w-]{22}$/), live: true }]);
    });

    it('when an administrator changes the password (PUT users/{id}); the new password signs in', async () => {
      const user = await createUser(app, admin, 'read-only');
      expect((await user.client.get('user/current')).status).toBe(200);
      const res = await updateUser(user, { localPasswd: NEW_PASSWORD, confirmLocalPasswd: NEW_PASSWORD });
      expectSuccessAlert(res, 'user was updated.');
      expectError(await user.client.get('user/current'), 401, SESSION_ENDED);
      await expect(ApiClient.login(app, user.username, USER_PASSWORD)).rejects.toThrow(/401/);
      const again = await ApiClient.login(app, user.username, NEW_PASSWORD);
      expect((await again.get('user/current')).status).toBe(200);
    });

    it('when the users change their own password, the cookie they changed it with included', async () => {
      const user = await createUser(app, admin, 'admin');
      const res = await updateUser(
        user,
        { role: 'admin', localPasswd: NEW_PASSWORD, confirmLocalPasswd: NEW_PASSWORD },
        user.client,
      );
      expectSuccessAlert(res, 'user was updated.');
      expectError(await current(sessionCookieOf(res)), 401, SESSION_ENDED);
      expectError(await user.client.get('user/current'), 401, SESSION_ENDED);
      expect((await (await ApiClient.login(app, user.username, NEW_PASSWORD)).get('cdns')).status).toBe(200);
    });

    it('when the role changes, also to disallowed (deactivation); the new role applies at the next sign-in', async () => {
      const user = await createUser(app, admin, 'read-only');
      expect((await user.client.get('user/current')).status).toBe(200);
      expectSuccessAlert(await updateUser(user, { role: 'operations' }), 'user was updated.');
      expectError(await user.client.get('user/current'), 401, SESSION_ENDED);
      const promoted = await ApiClient.login(app, user.username, USER_PASSWORD);
      expect(responseOf<{ role: string }>(await promoted.get('user/current')).role).toBe('operations');

      expectSuccessAlert(await updateUser(user, { role: 'disallowed' }), 'user was updated.');
      expectError(await promoted.get('user/current'), 401, SESSION_ENDED);
      await expect(ApiClient.login(app, user.username, USER_PASSWORD)).rejects.toThrow(/401/);
    });

    it('when the user is renamed (the cookie names the user by name and id)', async () => {
      const user = await createUser(app, admin, 'read-only');
      const renamed = uniqueName('renamed', 40).toLowerCase();
      expectSuccessAlert(await updateUser(user, { username: renamed }), 'user was updated.');
      expectError(await user.client.get('user/current'), 401, 'user not found');
      expect((await (await ApiClient.login(app, renamed, USER_PASSWORD)).get('user/current')).status).toBe(
        200,
      );
    });

    it('not on other changes to the user, nor on a change that fails', async () => {
      const user = await createUser(app, admin, 'read-only');
      const tenant = await createTenant(admin);
      expectSuccessAlert(
        await updateUser(user, { fullName: 'Renamed in full', tenantId: tenant.id }),
        'user was updated.',
      );
      expect((await user.client.get('user/current')).status).toBe(200);
      // The password and role would change, but the tenant does not exist: nothing is written.
      const failed = await updateUser(user, {
        role: 'operations',
        localPasswd: NEW_PASSWORD,
        confirmLocalPasswd: NEW_PASSWORD,
        tenantId: 99_999_999,
      });
      expect(failed.status).toBeGreaterThanOrEqual(400);
      expect(failed.status).toBeLessThan(500);
      const res = await user.client.get('user/current');
      expect(res.status).toBe(200);
      expect(responseOf<{ role: string; tenantId: number }>(res)).toMatchObject({
        role: 'read-only',
        tenantId: tenant.id,
      });
    });
  });

  describe('renewal', () => {
    let user: CreatedUser;

    beforeAll(async () => {
      user = await createUser(app, admin, 'read-only');
    });

    /** A renewed session cookie, which itself signs in. */
    const expectRenewed = async (res: Response): Promise<void> => {
      const cookies = setCookies(res).filter((c) => c.startsWith('mojolicious='));
      expect(cookies).toHaveLength(1);
      expect(cookies[0]).toMatch(
        /^mojolicious=[^;]+; Max-Age=3600; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/,
      );
      expect((await current(sessionCookieOf(res))).status).toBe(200);
    };

    it('comes with a success', async () => {
      const res = await user.client.get('cdns');
      expect(res.status).toBe(200);
      await expectRenewed(res);
    });

    it('comes with a 400 for malformed JSON, answered before the session is checked', async () => {
      const res = await user.client.raw('post', 'cdns', '{"name":');
      expectMalformedJson(res);
      await expectRenewed(res);
    });

    it('comes with a 413 for an oversized body', async () => {
      const res = await user.client.raw('post', 'cdns', JSON.stringify({ name: 'x'.repeat(1_100_000) }));
      expect(res.status).toBe(413);
      await expectRenewed(res);
    });

    it('comes with a 404 for an unknown id', async () => {
      const res = await admin.get('users/99999999');
      expectError(res, 404, 'no user found with this id');
      await expectRenewed(res);
    });

    it('comes with a 403 for a missing permission', async () => {
      const res = await user.client.post('cdns', { name: 'x', domainName: 'x.example.net' });
      expect(res.status).toBe(403);
      await expectRenewed(res);
    });

    it('comes with a 404 for an unknown path', async () => {
      const res = await user.client.get('no-such-resource');
      expect(res.status).toBe(404);
      await expectRenewed(res);
    });

    it('never comes without a valid session', async () => {
      const anonymous = ApiClient.anonymous(app);
      const withoutSession = [
        await anonymous.raw('post', 'cdns', '{"name":'),
        await anonymous.get('cdns'),
        await anonymous.get('no-such-resource'),
        await request(server).get('/api/4.0/cdns').set('Cookie', 'mojolicious=garbage'),
        await request(server)
          .post('/api/4.0/cdns')
          .set('Cookie', 'mojolicious=garbage')
          .set('Content-Type', 'application/json')
          .send('{"name":'),
      ];
      expect(withoutSession.map((res) => res.status)).toEqual([400, 401, 404, 401, 400]);
      for (const res of withoutSession) {
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    });

    it('does not revive an ended session', async () => {
      const ended = await createUser(app, admin, 'read-only');
      expect((await ended.client.post('user/logout')).status).toBe(200);
      const res = await ended.client.raw('post', 'cdns', '{"name":');
      expect(res.status).toBe(400);
      expect(res.headers['set-cookie']).toBeUndefined();
    });
  });
});
