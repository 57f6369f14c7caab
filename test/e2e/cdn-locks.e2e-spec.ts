import { ApiClient, responseOf } from 'test/e2e/support/api';
import { expectError, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { RFC3339_TIME } from 'test/e2e/support/times';
import { createCachegroup, typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService, deliveryServiceBody } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import type { CdnLockV4 } from 'src/modules/cdn-locks/dto/cdn-lock.response';
import { useApp } from 'test/e2e/support/suite';

describe('cdn_locks', () => {
  const { admin, holder, sharer, other, readOnly } = useApp({
    users: { holder: 'operations', sharer: 'operations', other: 'operations', readOnly: 'read-only' },
  });

  const locks = async (query = ''): Promise<CdnLockV4[]> =>
    responseOf<CdnLockV4[]>(await admin.get(`cdn_locks${query}`));
  const lock = async (client: ApiClient, body: Record<string, unknown>): Promise<CdnLockV4> => {
    const res = await client.post('cdn_locks', body);
    expect(res.status).toBe(200);
    return responseOf<CdnLockV4>(res);
  };
  const cdnBody = (cdn: { name: string }) => ({
    name: cdn.name,
    domainName: `${cdn.name}.example.net`,
    dnssecEnabled: false,
  });

  describe('POST and GET', () => {
    it.each(['4.0', '5.0'])('takes a soft lock and lists it on %s', async (version) => {
      const cdn = await createCdn(admin);
      const res = await holder.client
        .at(version)
        .post('cdn_locks', { cdn: cdn.name, message: 'snap', soft: true });
      expectOk(res, 'soft CDN lock acquired!');
      const created = responseOf<CdnLockV4>(res);
      expect(created).toEqual({
        userName: holder.username,
        cdn: cdn.name,
        message: 'snap',
        soft: true,
        sharedUserNames: null,
        lastUpdated: expect.stringMatching(RFC3339_TIME),
      });
      const listed = expectOk(await readOnly.client.at(version).get(`cdn_locks?cdn=${cdn.name}`));
      expect(responseOf(listed)).toEqual([{ ...created, sharedUserNames: [] }]);
    });

    it('takes a hard lock shared with other users and filters by username', async () => {
      const cdn = await createCdn(admin);
      const res = await holder.client.post('cdn_locks', {
        cdn: cdn.name,
        soft: false,
        sharedUserNames: [sharer.username],
      });
      expectSuccessAlert(res, 'hard CDN lock acquired!');
      const created = responseOf<CdnLockV4>(res);
      expect(created).toEqual({
        userName: holder.username,
        cdn: cdn.name,
        message: null,
        soft: false,
        sharedUserNames: [sharer.username],
        lastUpdated: expect.stringMatching(RFC3339_TIME),
      });
      expect(await locks(`?cdn=${cdn.name}`)).toEqual([created]);
      expect((await locks(`?username=${holder.username}`)).map((l) => l.cdn)).toContain(cdn.name);
      expect(await locks(`?username=${other.username}`)).toEqual([]);
    });

    it('does not exist before 4.0', async () => {
      expect((await admin.at('3.1').get('cdn_locks')).status).toBe(404);
    });

    it('refuses a second lock on a locked CDN', async () => {
      const cdn = await createCdn(admin);
      await lock(holder.client, { cdn: cdn.name, soft: true });
      expectError(
        await other.client.post('cdn_locks', { cdn: cdn.name, soft: true }),
        400,
        `cdn_lock cdn '${cdn.name}' already exists.`,
      );
      expect((await locks(`?cdn=${cdn.name}`)).map((l) => l.userName)).toEqual([holder.username]);
    });

    it('refuses bad bodies, unknown CDNs and unfit shared users, writing nothing', async () => {
      const cdn = await createCdn(admin);
      const refused: [Record<string, unknown>, number, string][] = [
        [{ cdn: cdn.name }, 400, "field 'soft' must be present"],
        [{ soft: true }, 400, "field 'cdn' must be present"],
        [{ cdn: '', soft: true }, 400, "field 'cdn' must be present"],
        [
          { cdn: 7, soft: true },
          400,
          'json: cannot unmarshal number into Go struct field CDNLock.cdn of type string',
        ],
        [
          { cdn: cdn.name, soft: 'yes' },
          400,
          'json: cannot unmarshal string into Go struct field CDNLock.soft of type bool',
        ],
        [
          { cdn: cdn.name, soft: true, sharedUserNames: 'x' },
          400,
          'json: cannot unmarshal string into Go struct field CDNLock.sharedUserNames of type []string',
        ],
        [
          { userName: 1, cdn: 7, soft: true },
          400,
          'json: cannot unmarshal number into Go struct field CDNLock.userName of type string',
        ],
        [
          { cdn: cdn.name, message: 3, soft: 'yes' },
          400,
          'json: cannot unmarshal number into Go struct field CDNLock.message of type string',
        ],
        [
          { cdn: cdn.name, soft: true, sharedUserNames: ['x', 2] },
          400,
          'json: cannot unmarshal number into Go struct field CDNLock.sharedUserNames of type string',
        ],
        [{ cdn: 'no-such-cdn', soft: true }, 404, 'cdn not found'],
        [
          { cdn: cdn.name, soft: true, sharedUserNames: ['no-such-user'] },
          400,
          'shared users must exist and have the correct permissions to create a lock',
        ],
        [
          { cdn: cdn.name, soft: true, sharedUserNames: [readOnly.username] },
          400,
          'shared users must exist and have the correct permissions to create a lock',
        ],
        [
          { cdn: cdn.name, soft: true, sharedUserNames: [holder.username] },
          400,
          'shared username cannot be the same as the one creating the lock',
        ],
      ];
      for (const [body, status, text] of refused) {
        expectError(await holder.client.post('cdn_locks', body), status, text);
      }
      expectMalformedJson(await holder.client.raw('post', 'cdn_locks', '{"cdn":'));
      for (const body of ['[1]', 'null', '"x"']) {
        expectError(
          await holder.client.raw('post', 'cdn_locks', body),
          400,
          'the request body must be a JSON object',
        );
      }
      expect(await locks(`?cdn=${cdn.name}`)).toEqual([]);
    });
  });

  describe('DELETE', () => {
    it('releases the own lock and answers it', async () => {
      const cdn = await createCdn(admin);
      const created = await lock(holder.client, {
        cdn: cdn.name,
        soft: false,
        sharedUserNames: [sharer.username],
      });
      const res = await holder.client.at('5.0').delete(`cdn_locks?cdn=${cdn.name}`);
      expectSuccessAlert(res, 'cdn lock deleted');
      expect(responseOf(res)).toEqual(created);
      expect(await locks(`?cdn=${cdn.name}`)).toEqual([]);
    });

    it('answers null shared users for a lock shared with nobody', async () => {
      const cdn = await createCdn(admin);
      const created = await lock(holder.client, { cdn: cdn.name, soft: true });
      expect(responseOf(await holder.client.delete(`cdn_locks?cdn=${cdn.name}`))).toEqual(created);
    });

    it("refuses to release another user's lock, unless forced by an admin", async () => {
      const cdn = await createCdn(admin);
      await lock(holder.client, { cdn: cdn.name, soft: true, sharedUserNames: [sharer.username] });
      expectError(
        await other.client.delete(`cdn_locks?cdn=${cdn.name}`),
        403,
        `deleting cdn lock with cdn name ${cdn.name}: operation forbidden`,
      );
      expectError(
        await sharer.client.delete(`cdn_locks?cdn=${cdn.name}`),
        403,
        `deleting cdn lock with cdn name ${cdn.name}: operation forbidden`,
      );
      expect(await locks(`?cdn=${cdn.name}`)).toHaveLength(1);
      const res = await admin.delete(`cdn_locks?cdn=${cdn.name}`);
      expectSuccessAlert(res, 'cdn lock deleted');
      expect(responseOf<CdnLockV4>(res).userName).toBe(holder.username);
      expect(await locks(`?cdn=${cdn.name}`)).toEqual([]);
      expectError(
        await admin.delete(`cdn_locks?cdn=${cdn.name}`),
        404,
        `deleting cdn lock with cdn name ${cdn.name}: lock not found`,
      );
    });

    it('requires the cdn parameter', async () => {
      expectError(
        await holder.client.delete('cdn_locks'),
        400,
        'required parameters missing: missing required parameters: cdn',
      );
    });

    it('goes away with its CDN', async () => {
      const cdn = await createCdn(admin);
      await lock(admin, { cdn: cdn.name, soft: true, sharedUserNames: [holder.username] });
      expect((await admin.delete(`cdns/${cdn.id}`)).status).toBe(200);
      expect(await locks(`?cdn=${cdn.name}`)).toEqual([]);
    });
  });

  describe('writes to a locked CDN', () => {
    it("a hard lock refuses other users' CDN, server, delivery service and cache group writes", async () => {
      const cdn = await createCdn(admin);
      const profile = await createProfile(admin, cdn.id);
      const cachegroup = await createCachegroup(admin);
      const server = await createServer(admin, cdn.id, {
        cachegroupId: cachegroup.id,
        profileName: profile.name,
      });
      const ds = await createDeliveryService(admin, cdn.id);
      await lock(holder.client, { cdn: cdn.name, soft: false, sharedUserNames: [sharer.username] });
      const hard = `user ${holder.username} currently has a hard lock on cdn ${cdn.name}`;

      expectError(await other.client.put(`cdns/${cdn.id}`, cdnBody(cdn)), 403, hard);
      expectError(await other.client.delete(`cdns/${cdn.id}`), 403, hard);
      expectError(await other.client.delete(`servers/${server.id}`), 403, hard);
      expectError(await other.client.delete(`deliveryservices/${ds.id}`), 403, hard);
      expectError(
        await other.client.post(
          'deliveryservices',
          deliveryServiceBody(cdn.id, await typeIdOf(admin, 'HTTP')),
        ),
        403,
        hard,
      );
      const cachegroupBody = responseOf<Record<string, unknown>[]>(
        await admin.get(`cachegroups?id=${cachegroup.id}`),
      )[0];
      expectError(await other.client.put(`cachegroups/${cachegroup.id}`, cachegroupBody), 403, hard);
      expectError(
        await other.client.post(`cachegroups/${cachegroup.id}/queue_update`, {
          action: 'queue',
          cdn: cdn.name,
        }),
        403,
        `user ${other.username} currently does not have the lock on cdn ${cdn.name}`,
      );
      expect((await admin.get(`servers?id=${server.id}`)).status).toBe(200);
      expect(responseOf<unknown[]>(await admin.get(`deliveryservices?id=${ds.id}`))).toHaveLength(1);

      // The holder and the users it shares the lock with write as usual.
      expect((await holder.client.put(`cdns/${cdn.id}`, cdnBody(cdn))).status).toBe(200);
      expect((await sharer.client.put(`cdns/${cdn.id}`, cdnBody(cdn))).status).toBe(200);
      expect((await sharer.client.put(`cachegroups/${cachegroup.id}`, cachegroupBody)).status).toBe(200);
      expect(
        (
          await sharer.client.post(`cachegroups/${cachegroup.id}/queue_update`, {
            action: 'queue',
            cdn: cdn.name,
          })
        ).status,
      ).toBe(200);
      // Dequeueing is not refused.
      expect(
        (
          await other.client.post(`cachegroups/${cachegroup.id}/queue_update`, {
            action: 'dequeue',
            cdn: cdn.name,
          })
        ).status,
      ).toBe(200);

      await holder.client.delete(`cdn_locks?cdn=${cdn.name}`);
      expect((await other.client.put(`cdns/${cdn.id}`, cdnBody(cdn))).status).toBe(200);
    });

    it('a soft lock lets others write but not queue updates', async () => {
      const cdn = await createCdn(admin);
      const cachegroup = await createCachegroup(admin);
      await createServer(admin, cdn.id, { cachegroupId: cachegroup.id });
      await lock(holder.client, { cdn: cdn.name, soft: true });
      expect((await other.client.put(`cdns/${cdn.id}`, cdnBody(cdn))).status).toBe(200);
      expectError(
        await other.client.post(`cachegroups/${cachegroup.id}/queue_update`, {
          action: 'queue',
          cdnId: cdn.id,
        }),
        403,
        `user ${other.username} currently does not have the lock on cdn ${cdn.name}`,
      );
      expect(
        (
          await holder.client.post(`cachegroups/${cachegroup.id}/queue_update`, {
            action: 'queue',
            cdnId: cdn.id,
          })
        ).status,
      ).toBe(200);
    });
  });
});
