import { responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

const PERMISSIONS = ['CACHE-GROUP:READ', 'CDN:READ', 'SERVER:READ', 'SERVER:QUEUE'];

describe('POST /cachegroups/{id}/queue_update', () => {
  const { app, admin } = useApp();
  let cdnA: { id: number; name: string };
  let cdnB: { id: number; name: string };
  let cachegroup: { id: number; name: string };
  let inA: ServerResponse[];
  let inB: ServerResponse, elsewhere: ServerResponse;

  const path = (id: number | string) => `cachegroups/${id}/queue_update`;
  const pending = async (server: ServerResponse): Promise<boolean> =>
    responseOf<{ updPending: boolean }[]>(await admin.get(`servers?id=${server.id}`))[0].updPending;
  const pendingOfAll = async (): Promise<boolean[]> =>
    Promise.all([...inA, inB, elsewhere].map((s) => pending(s)));

  beforeAll(async () => {
    [cdnA, cdnB] = [await createCdn(admin), await createCdn(admin)];
    const profileA = (await createProfile(admin, cdnA.id)).name;
    const profileB = (await createProfile(admin, cdnB.id)).name;
    cachegroup = await createCachegroup(admin);
    const server = (typeName: string, cdnId: number, profileName: string, cachegroupId = cachegroup.id) =>
      createServer(admin, cdnId, { cachegroupId, typeName, profileName });
    inA = [await server('EDGE', cdnA.id, profileA), await server('MID', cdnA.id, profileA)];
    inB = await server('EDGE', cdnB.id, profileB);
    elsewhere = await server('EDGE', cdnA.id, profileA, (await createCachegroup(admin)).id);
  });

  it('queues updates on every server of the cache group in the CDN, of any type', async () => {
    expect(await pendingOfAll()).toEqual([false, false, false, false]);
    const res = expectOk(await admin.post(path(cachegroup.id), { action: 'queue', cdn: cdnA.name }));
    expect(res.body).toEqual({
      response: {
        cachegroupName: cachegroup.name,
        action: 'queue',
        serverNames: inA.map((s) => s.hostName).sort(),
        cdn: cdnA.name,
        cachegroupID: cachegroup.id,
      },
    });
    expect(await pendingOfAll()).toEqual([true, true, false, false]);
  });

  it('dequeues them, by CDN id (a number or a numeric string)', async () => {
    await admin.post(path(cachegroup.id), { action: 'queue', cdnId: cdnB.id });
    expect(await pendingOfAll()).toEqual([true, true, true, false]);
    const res = await admin.post(path(cachegroup.id), { action: 'dequeue', cdnId: String(cdnA.id) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      response: {
        cachegroupName: cachegroup.name,
        action: 'dequeue',
        serverNames: inA.map((s) => s.hostName).sort(),
        cdn: cdnA.name,
        cachegroupID: cachegroup.id,
      },
    });
    expect(await pendingOfAll()).toEqual([false, false, true, false]);
    expect((await admin.post(path(cachegroup.id), { action: 'dequeue', cdnId: cdnB.id })).status).toBe(200);
    expect(await pendingOfAll()).toEqual([false, false, false, false]);
  });

  it('accepts cdn and cdnId together when they name the same CDN, on every version', async () => {
    for (const version of ['3.0', '3.1', '4.0', '4.1', '5.0']) {
      const res = await admin
        .at(version)
        .post(path(cachegroup.id), { action: 'queue', cdn: cdnB.name, cdnId: cdnB.id });
      expect(res.status).toBe(200);
      expect(responseOf<{ serverNames: string[] }>(res).serverNames).toEqual([inB.hostName]);
    }
    expect(await pendingOfAll()).toEqual([false, false, true, false]);
    await admin.post(path(cachegroup.id), { action: 'dequeue', cdn: cdnB.name });
    expect(await pendingOfAll()).toEqual([false, false, false, false]);
  });

  it('answers an empty list when the cache group has no server in the CDN', async () => {
    const empty = await createCachegroup(admin);
    const res = await admin.post(path(empty.id), { action: 'queue', cdn: cdnA.name });
    expect(res.status).toBe(200);
    expect(responseOf<{ serverNames: string[] }>(res).serverNames).toEqual([]);
  });

  it('refuses cdn and cdnId that disagree, changing nothing (decision D8)', async () => {
    expectError(
      await admin.post(path(cachegroup.id), { action: 'queue', cdn: cdnA.name, cdnId: cdnB.id }),
      400,
      `cdn '${cdnA.name}' and cdnId ${cdnB.id} do not name the same CDN`,
    );
    expect(await pendingOfAll()).toEqual([false, false, false, false]);
  });

  it('refuses a bad action, a missing CDN and unknown CDNs', async () => {
    const cases: [unknown, string][] = [
      [{ action: 'requeue', cdn: cdnA.name }, "action must be 'queue' or 'dequeue'"],
      [{ cdn: cdnA.name }, "action must be 'queue' or 'dequeue'"],
      [{ action: 'queue' }, 'cdn is a required field'],
      [{ action: 'queue', cdn: '' }, 'cdn is a required field'],
      [{ action: 'queue', cdn: null, cdnId: null }, 'cdn is a required field'],
      [{ action: 'queue', cdn: 'no-such-cdn' }, 'cdn no-such-cdn does not exist'],
      [{ action: 'queue', cdnId: 987654321 }, 'cdn id 987654321 does not exist'],
      [{ action: 'queue', cdn: cdnA.name, cdnId: 987654321 }, 'cdn id 987654321 does not exist'],
      [{ action: 'queue', cdnId: 'one' }, "'cdnId' must be an integer"],
      [{ action: 'queue', cdnId: 1.5 }, "'cdnId' must be an integer"],
      [{ action: 'queue', cdn: 7 }, "'cdn' must be a string"],
      [['queue'], 'the request body must be a JSON object'],
    ];
    for (const [body, text] of cases) {
      expectError(await admin.post(path(cachegroup.id), body), 400, text);
    }
    expect(await pendingOfAll()).toEqual([false, false, false, false]);
  });

  it('refuses malformed JSON and a non-integer id', async () => {
    const res = await admin.raw('post', path(cachegroup.id), '{"action":');
    expectMalformedJson(res);
    expectError(
      await admin.post(path('x1'), { action: 'queue', cdn: cdnA.name }),
      400,
      "getting integer parameters: parameter 'id' not an integer",
    );
  });

  it('answers 404 for a cache group that does not exist', async () => {
    expectError(
      await admin.post(path(987654321), { action: 'queue', cdn: cdnA.name }),
      404,
      'cachegroup not found',
    );
  });

  describe('authorization', () => {
    let lacking: CreatedUser, holding: CreatedUser;

    beforeAll(async () => {
      lacking = await createUser(app, admin, await createRole(admin, PERMISSIONS.slice(0, 3)));
      holding = await createUser(app, admin, await createRole(admin, PERMISSIONS));
    });

    it('needs the permissions on 4.0 but not on 3.0', async () => {
      const body = { action: 'dequeue', cdn: cdnA.name };
      expectError(
        await lacking.client.post(path(cachegroup.id), body),
        403,
        'missing required Permissions: SERVER:QUEUE',
      );
      expect((await lacking.client.at('3.0').post(path(cachegroup.id), body)).status).toBe(200);
      expect((await holding.client.post(path(cachegroup.id), body)).status).toBe(200);
    });
  });
});
