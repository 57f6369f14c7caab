import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import request from 'supertest';
import { ApiClient, responseOf } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { sql } from 'test/e2e/support/fixtures/snapshots';
import { useApp } from 'test/e2e/support/suite';

const INVALID_TOKEN = 'Invalid token. Please contact your administrator.';

/**
 * POST user/login/token: a user's registration or password-reset token signs them in (the session
 * cookie, as a password sign-in gives), once (D121); a disallowed user's, an unknown or an empty
 * token is 401.
 */
describe('POST user/login/token', () => {
  const { app, admin } = useApp();
  const post = (body: unknown, version = '4.0') =>
    request(app.getHttpServer() as Server)
      .post(`/api/${version}/user/login/token`)
      .send(body as object);
  const withToken = async (role: string): Promise<{ id: number; username: string; token: string }> => {
    const user = await createUser(app, admin, role);
    const token = randomUUID();
    await sql(app, 'UPDATE tm_user SET token = ? WHERE id = ?', [token, user.id]);
    return { id: user.id, username: user.username, token };
  };

  it.each(['3.0', '4.0', '5.0'])('signs the user in on %s, and the token is used up', async (version) => {
    const user = await withToken('operations');
    const res = await post({ t: user.token }, version);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ alerts: [{ text: 'Successfully logged in.', level: 'success' }] });
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('mojolicious='),
    );
    expect(cookie).toBeDefined();
    const client = new ApiClient(app.getHttpServer() as Server, version, cookie!.split(';')[0]);
    expect(responseOf<{ username: string }>(await client.get('user/current')).username).toBe(user.username);
    expectError(await post({ t: user.token }, version), 401, INVALID_TOKEN);
  });

  it('refuses a disallowed user, an unknown token and a missing or empty one (401)', async () => {
    const disallowed = await withToken('operations');
    await sql(app, "UPDATE tm_user SET role = (SELECT id FROM role WHERE name = 'disallowed') WHERE id = ?", [
      disallowed.id,
    ]);
    expectError(await post({ t: disallowed.token }), 401, INVALID_TOKEN);
    expectError(await post({ t: 'notarealtoken' }), 401, INVALID_TOKEN);
    expectError(await post({ t: '' }), 401, INVALID_TOKEN);
    expectError(await post({}), 401, INVALID_TOKEN);
  });

  it('refuses a token that is not a string (400)', async () => {
    expectError(await post({ t: 5 }), 400, 'Invalid request: t must be a string');
  });
});
