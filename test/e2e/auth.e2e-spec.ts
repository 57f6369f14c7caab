import request from 'supertest';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { issueSessionCookie, newSessionId, type SessionClaims } from 'src/modules/auth/session-cookie';
import { ApiClient, responseOf, sessionCookieOf, uniqueName } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import { RFC3339_FRACTIONAL_TIME } from 'test/e2e/support/times';
import { ADMIN_PASSWORD, SESSION_SECRET, USER_PASSWORD } from 'test/e2e/support/constants';
import { useApp } from 'test/e2e/support/suite';

describe('sign-in and sessions (D10, D11)', () => {
  const { app, admin } = useApp();
  let server: App;
  let adminClaims: SessionClaims;

  beforeAll(async () => {
    server = app.getHttpServer() as App;
    const current = responseOf<{ id: number }>(await admin.get('user/current'));
    const [{ generation }] = await app
      .get(DataSource)
      .query<{ generation: number }[]>('SELECT session_generation AS generation FROM tm_user WHERE id = ?', [
        current.id,
      ]);
    adminClaims = {
      username: 'admin',
      userId: current.id,
      generation: Number(generation),
      sessionId: newSessionId(),
    };
  });

  const login = (body: unknown, version = '4.0') =>
    request(server)
      .post(`/api/${version}/user/login`)
      .send(body as object);

  describe('POST user/login', () => {
    it.each(['3.0', '4.0', '5.0'])(
      'signs the first admin in on %s and sets the session cookie',
      async (version) => {
        const res = await login({ u: 'admin', p: ADMIN_PASSWORD }, version);
        expectSuccessAlert(res, 'Successfully logged in.');
        expect(res.body).toEqual({ alerts: [{ text: 'Successfully logged in.', level: 'success' }] });
        expectApiHeaders(res);
        const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0];
        expect(cookie).toMatch(
          /^mojolicious=[A-Za-z0-9_-]+--[0-9a-f]{64}; Max-Age=3600; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/,
        );
      },
    );

    it('refuses a wrong password', async () => {
      expectError(await login({ u: 'admin', p: 'wrong-password' }), 401, 'Invalid username or password.');
    });

    it('refuses an unknown user with the same text', async () => {
      expectError(
        await login({ u: uniqueName('nobody'), p: 'whatever-pass' }),
        401,
        'Invalid username or password.',
      );
    });

    it.each([
      ['an empty password', { u: 'admin', p: '' }],
      ['a missing user name', { p: ADMIN_PASSWORD }],
      ['a numeric password', { u: 'admin', p: 12345678 }],
      ['an empty object', {}],
    ])('answers %s with 400', async (_case, body) => {
      expectError(await login(body), 400, 'username and password are required');
    });

    it('answers malformed JSON with 400', async () => {
      const res = await request(server)
        .post('/api/4.0/user/login')
        .set('Content-Type', 'application/json')
        .send('{"u":');
      expectMalformedJson(res);
    });

    it('refuses a user of the disallowed role', async () => {
      const username = uniqueName('blocked', 40).toLowerCase();
      const created = await admin.post('users', {
        username,
        localPasswd: USER_PASSWORD,
        confirmLocalPasswd: USER_PASSWORD,
        role: 'disallowed',
        tenantId: 1,
        email: `${username}@example.com`,
        fullName: 'Blocked User',
      });
      expect(created.status).toBe(200);
      expectError(await login({ u: username, p: USER_PASSWORD }), 401, 'Invalid username or password.');
    });

    it('limits failed attempts per user name and address, without locking others out', async () => {
      const victim = await createUser(app, admin, 'read-only');
      for (let i = 0; i < 10; i++) {
        expectError(
          await login({ u: victim.username, p: 'not-the-password' }),
          401,
          'Invalid username or password.',
        );
      }
      expectError(
        await login({ u: victim.username, p: USER_PASSWORD }),
        429,
        'Too many failed login attempts; please try again later.',
      );
      expect((await login({ u: 'admin', p: ADMIN_PASSWORD })).status).toBe(200);
    });

    it('signs in concurrent attempts with the right password, more than the limit of them', async () => {
      const user = await createUser(app, admin, 'read-only');
      const results = await Promise.all(
        Array.from({ length: 16 }, () => login({ u: user.username, p: USER_PASSWORD })),
      );
      expect(results.map((r) => r.status)).toEqual(Array.from({ length: 16 }, () => 200));
    });

    it('checks no more concurrent attempts than the limit: the others wait, then answer 429', async () => {
      const victim = await createUser(app, admin, 'read-only');
      const results = await Promise.all(
        Array.from({ length: 16 }, () => login({ u: victim.username, p: 'not-the-password' })),
      );
      expect(results.filter((r) => r.status === 401).length).toBe(10);
      for (const res of results.filter((r) => r.status !== 401)) {
        expectError(res, 429, 'Too many failed login attempts; please try again later.');
      }
      expectError(
        await login({ u: victim.username, p: USER_PASSWORD }),
        429,
        'Too many failed login attempts; please try again later.',
      );
    });
  });

  describe('user names compare exactly, for sign-in and its limit', () => {
    const INVALID = 'Invalid username or password.';
    const TOO_MANY = 'Too many failed login attempts; please try again later.';
    const variants = (name: string) => [`${name} `, `${name}  `, name.toUpperCase(), ` ${name}`];

    it('signs no one in with a trailing-space, leading-space or case variant of a name', async () => {
      const user = await createUser(app, admin, 'read-only');
      for (const variant of variants(user.username)) {
        expectError(await login({ u: variant, p: USER_PASSWORD }), 401, INVALID);
      }
      expect((await login({ u: user.username, p: USER_PASSWORD })).status).toBe(200);
    });

    it('keeps answering 429 to every spelling of a name once the account reached its limit', async () => {
      const victim = await createUser(app, admin, 'read-only');
      for (let i = 0; i < 10; i++) {
        expectError(await login({ u: victim.username, p: 'not-the-password' }), 401, INVALID);
      }
      expectError(await login({ u: victim.username, p: USER_PASSWORD }), 429, TOO_MANY);
      for (const variant of variants(victim.username)) {
        const res = await login({ u: variant, p: USER_PASSWORD });
        expect(res.headers['set-cookie']).toBeUndefined();
        expectError(res, 401, INVALID);
      }
      expectError(await login({ u: victim.username, p: USER_PASSWORD }), 429, TOO_MANY);
    });

    it('limits a name that names no one as typed, apart from its variants', async () => {
      const nobody = uniqueName('nobody', 40).toLowerCase();
      for (let i = 0; i < 10; i++) {
        expectError(await login({ u: nobody, p: 'not-the-password' }), 401, INVALID);
      }
      expectError(await login({ u: nobody, p: 'not-the-password' }), 429, TOO_MANY);
      expectError(await login({ u: `${nobody} `, p: 'not-the-password' }), 401, INVALID);
    });
  });

  describe('session cookie', () => {
    const getCdns = (cookie?: string) => {
      const req = request(server).get('/api/4.0/cdns');
      return cookie ? req.set('Cookie', cookie) : req;
    };

    it('is required', async () => {
      expectError(await getCdns(), 401, 'unauthorized, please log in.');
    });

    it('must carry our signature', async () => {
      const forged = issueSessionCookie('another-secret-of-at-least-32-characters', adminClaims);
      expectError(await getCdns(`mojolicious=${forged}`), 401, 'bad signature - unauthorized, please log in');
    });

    it('must not have expired', async () => {
      const expired = issueSessionCookie(SESSION_SECRET, adminClaims, Date.now() - 3601_000);
      expectError(
        await getCdns(`mojolicious=${expired}`),
        401,
        'signature expired - unauthorized, please log in',
      );
    });

    it('must be well formed', async () => {
      expectError(
        await getCdns('mojolicious=garbage'),
        401,
        "error parsing cookie: malformed cookie 'garbage' - no dashes",
      );
    });

    it('must name an existing user', async () => {
      const ghost = issueSessionCookie(SESSION_SECRET, {
        username: uniqueName('ghost'),
        userId: 2 ** 31 - 1,
        generation: 0,
        sessionId: newSessionId(),
      });
      expectError(await getCdns(`mojolicious=${ghost}`), 401, 'user not found');
    });

    it('must name the user by both name and id', async () => {
      const other = issueSessionCookie(SESSION_SECRET, { ...adminClaims, username: 'admin ' });
      expectError(await getCdns(`mojolicious=${other}`), 401, 'user not found');
    });

    it('must carry the user’s current session generation', async () => {
      const stale = issueSessionCookie(SESSION_SECRET, {
        ...adminClaims,
        generation: adminClaims.generation + 1,
      });
      expectError(await getCdns(`mojolicious=${stale}`), 401, 'session ended - unauthorized, please log in');
      expect((await getCdns(`mojolicious=${issueSessionCookie(SESSION_SECRET, adminClaims)}`)).status).toBe(
        200,
      );
    });

    it('issued by one login works for later requests and is renewed by them', async () => {
      const res = await login({ u: 'admin', p: ADMIN_PASSWORD });
      const cookie = sessionCookieOf(res);
      const next = await getCdns(cookie);
      expect(next.status).toBe(200);
      expect(sessionCookieOf(next)).toMatch(/^mojolicious=/);
    });
  });

  describe('POST user/logout', () => {
    it('expires the cookie', async () => {
      // Signing out ends every session of the user: not the admin's, whom the other tests use.
      const { client } = await createUser(app, admin, 'read-only');
      const res = expectOk(await client.post('user/logout'), 'You are logged out.');
      const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      expect(cookies).toHaveLength(1);
      expect(cookies[0]).toMatch(
        /^mojolicious=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/,
      );
    });

    it('needs a session', async () => {
      expectError(await ApiClient.anonymous(app).post('user/logout'), 401, 'unauthorized, please log in.');
    });
  });

  describe('GET user/current', () => {
    it('shows the signed-in user in the 4.x shape', async () => {
      const res = expectOk(await admin.get('user/current'));
      const user = (res.body as { response: Record<string, unknown> }).response;
      expect(user).toMatchObject({
        username: 'admin',
        role: 'admin',
        tenant: 'root',
        tenantId: 1,
        id: expect.any(Number),
      });
      expect(user.lastUpdated).toMatch(RFC3339_FRACTIONAL_TIME); // UserV40: RFC 3339 (D5b)
      expect(user).not.toHaveProperty('localPasswd');
      expect(user).not.toHaveProperty('rolename');
    });

    it('shows the role id and name in the 3.x shape', async () => {
      const res = await admin.at('3.0').get('user/current');
      const user = (res.body as { response: Record<string, unknown> }).response;
      expect(user).toMatchObject({
        username: 'admin',
        role: expect.any(Number),
        rolename: 'admin',
        localUser: true,
      });
    });

    it('works for every role that may sign in', async () => {
      for (const role of ['read-only', 'operations', 'portal', 'federation', 'steering']) {
        const user = await createUser(app, admin, role);
        const res = await user.client.get('user/current');
        expect(res.status).toBe(200);
        expect((res.body as { response: { role: string } }).response.role).toBe(role);
      }
    });

    it('needs a session', async () => {
      expectError(await ApiClient.anonymous(app).get('user/current'), 401, 'unauthorized, please log in.');
    });
  });
});
