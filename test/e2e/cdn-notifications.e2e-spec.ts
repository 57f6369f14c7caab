import { responseOf } from 'test/e2e/support/api';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import { RFC3339_TIME } from 'test/e2e/support/times';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import type { CdnNotificationV4 } from 'src/modules/cdn-notifications/dto/cdn-notification.response';
import { useApp } from 'test/e2e/support/suite';

describe('cdn_notifications', () => {
  const { admin, operations, readOnly } = useApp({
    users: { operations: 'operations', readOnly: 'read-only' },
  });

  const all = async (query = ''): Promise<CdnNotificationV4[]> =>
    responseOf<CdnNotificationV4[]>(await admin.get(`cdn_notifications${query}`));

  it.each(['4.0', '5.0'])(
    'creates a notification as the signed-in user and lists it on %s',
    async (version) => {
      const cdn = await createCdn(admin);
      const res = await operations.client
        .at(version)
        .post('cdn_notifications', { cdn: cdn.name, notification: 'maintenance tonight' });
      expectSuccessAlert(
        res,
        `CDN notification created [ User = ${operations.username} ] for CDN: ${cdn.name}`,
      );
      expectApiHeaders(res);
      const created = responseOf<CdnNotificationV4>(res);
      expect(created).toEqual({
        id: expect.any(Number),
        cdn: cdn.name,
        lastUpdated: expect.stringMatching(RFC3339_TIME),
        notification: 'maintenance tonight',
        user: operations.username,
      });
      const listed = expectOk(await readOnly.client.at(version).get(`cdn_notifications?cdn=${cdn.name}`));
      expect(responseOf(listed)).toEqual([created]);
    },
  );

  it('does not exist before 4.0', async () => {
    const res = await admin.at('3.0').get('cdn_notifications');
    expect(res.status).toBe(404);
  });

  it('filters by cdn, id and user', async () => {
    const cdn = await createCdn(admin);
    const mine = responseOf<CdnNotificationV4>(
      await admin.post('cdn_notifications', { cdn: cdn.name, notification: 'one' }),
    );
    const theirs = responseOf<CdnNotificationV4>(
      await operations.client.post('cdn_notifications', { cdn: cdn.name, notification: 'two' }),
    );
    expect(await all(`?cdn=${cdn.name}`)).toEqual([mine, theirs]);
    expect(await all(`?id=${theirs.id}`)).toEqual([theirs]);
    expect((await all(`?user=${operations.username}&cdn=${cdn.name}`)).map((n) => n.id)).toEqual([theirs.id]);
    expect(await all('?cdn=no-such-cdn')).toEqual([]);
    expectError(await admin.get('cdn_notifications?id=x'), 400, 'id cannot parse to integer');
  });

  it('refuses a missing field, a wrong type, malformed JSON and an unknown CDN, writing nothing', async () => {
    const before = (await all()).length;
    const cdn = await createCdn(admin);
    await expectErrors([
      [admin.post('cdn_notifications', { notification: 'x' }), 400, "'cdn' cannot be blank"],
      [
        admin.post('cdn_notifications', { cdn: cdn.name, notification: '' }),
        400,
        "'notification' cannot be blank",
      ],
      [
        admin.post('cdn_notifications', { cdn: cdn.name, notification: 7 }),
        400,
        "'notification' must be a string",
      ],
    ]);
    expectMalformedJson(await admin.raw('post', 'cdn_notifications', '{"cdn": '));
    expectError(
      await admin.post('cdn_notifications', { cdn: 'no-such-cdn', notification: 'x' }),
      404,
      'cdn not found',
    );
    expect((await all()).length).toBe(before);
  });

  it('deletes by ?id= and answers the deleted notification', async () => {
    const cdn = await createCdn(admin);
    const created = responseOf<CdnNotificationV4>(
      await operations.client.post('cdn_notifications', { cdn: cdn.name, notification: 'bye' }),
    );
    const res = await admin.delete(`cdn_notifications?id=${created.id}`);
    expectSuccessAlert(
      res,
      `CDN notification deleted [ User = ${operations.username} ] for CDN: ${cdn.name}`,
    );
    expect(responseOf(res)).toEqual(created);
    expect(await all(`?id=${created.id}`)).toEqual([]);
    expectError(
      await admin.delete(`cdn_notifications?id=${created.id}`),
      404,
      `No CDN Notification for ${created.id}`,
    );
  });

  it('refuses a delete without an integer id', async () => {
    await expectErrors([
      [
        admin.delete('cdn_notifications'),
        400,
        'required parameters missing: missing required parameters: id',
      ],
      [
        admin.delete('cdn_notifications?id=abc'),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      ],
    ]);
  });

  it('refuses a delete whose notification changed since If-Unmodified-Since (412)', async () => {
    const cdn = await createCdn(admin);
    const created = responseOf<CdnNotificationV4>(
      await admin.post('cdn_notifications', { cdn: cdn.name, notification: 'kept' }),
    );
    const res = await admin
      .delete(`cdn_notifications?id=${created.id}`)
      .set('If-Unmodified-Since', 'Mon, 01 Jan 2001 00:00:00 GMT');
    expectError(res, 412, 'resource was modified since the time specified by the request headers');
    expect(await all(`?id=${created.id}`)).toEqual([created]);
  });

  it('goes away with its CDN', async () => {
    const cdn = await createCdn(admin);
    const created = responseOf<CdnNotificationV4>(
      await admin.post('cdn_notifications', { cdn: cdn.name, notification: 'gone soon' }),
    );
    expect((await admin.delete(`cdns/${cdn.id}`)).status).toBe(200);
    expect(await all(`?id=${created.id}`)).toEqual([]);
  });
});
