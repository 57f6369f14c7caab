import { responseOf } from 'test/e2e/support/api';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import type { CdnQueueUpdateResponse } from 'src/modules/servers/dto/server-update-status.response';
import { useApp } from 'test/e2e/support/suite';

describe('POST /cdns/{id}/queue_update', () => {
  const { admin } = useApp();
  let cdn: { id: number; name: string };
  let otherCdn: { id: number; name: string };
  let profileA: string;
  let edge: ServerResponse, mid: ServerResponse, elsewhere: ServerResponse;

  const path = (id: number | string) => `cdns/${id}/queue_update`;
  const pending = async (): Promise<boolean[]> =>
    Promise.all(
      [edge, mid, elsewhere].map(
        async (s) =>
          responseOf<{ updPending: boolean }[]>(await admin.get(`servers?id=${s.id}`))[0].updPending,
      ),
    );

  beforeAll(async () => {
    [cdn, otherCdn] = [await createCdn(admin), await createCdn(admin)];
    profileA = (await createProfile(admin, cdn.id)).name;
    const profileB = (await createProfile(admin, cdn.id)).name;
    edge = await createServer(admin, cdn.id, { typeName: 'EDGE', profileName: profileA });
    mid = await createServer(admin, cdn.id, { typeName: 'MID', profileName: profileB });
    elsewhere = await createServer(admin, otherCdn.id, { typeName: 'EDGE' });
  });

  it('queues every server of the CDN and answers the action and the CDN, without alerts', async () => {
    const res = expectOk(await admin.post(path(cdn.id), { action: 'queue' }));
    expect(res.body).toEqual({
      response: { action: 'queue', cdnId: cdn.id } satisfies CdnQueueUpdateResponse,
    });
    expect(await pending()).toEqual([true, true, false]);
  });

  it('dequeues only the servers of a type, then only those with a profile', async () => {
    const res = await admin.at('3.0').post(`${path(cdn.id)}?type=MID`, { action: 'dequeue' });
    expect(res.body).toEqual({ response: { action: 'dequeue', cdnId: cdn.id } });
    expect(await pending()).toEqual([true, false, false]);
    await admin.at('5.0').post(`${path(cdn.id)}?profile=${profileA}`, { action: 'dequeue' });
    expect(await pending()).toEqual([false, false, false]);
  });

  it('answers 404 for an unknown CDN, type or profile, and writes nothing', async () => {
    await expectErrors([
      [admin.post(path(2147483647), { action: 'queue' }), 404, 'Not Found'],
      [admin.post(`${path(cdn.id)}?type=NOPE`, { action: 'queue' }), 404, 'no type ID found with that name'],
      [
        admin.post(`${path(cdn.id)}?profile=nope`, { action: 'queue' }),
        404,
        'no profile ID found with that name',
      ],
    ]);
    expect(await pending()).toEqual([false, false, false]);
  });

  it('refuses a bad action, malformed JSON and a bad id', async () => {
    expectError(
      await admin.post(path(cdn.id), { action: 'later' }),
      400,
      "action must be 'queue' or 'dequeue'",
    );
    expectMalformedJson(await admin.raw('post', path(cdn.id), '{"action"'));
    expectError(
      await admin.post(path('x'), { action: 'queue' }),
      400,
      "getting integer parameters: parameter 'id' not an integer",
    );
    expect(await pending()).toEqual([false, false, false]);
  });
});
