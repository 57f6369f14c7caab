import { ApiClient, responseOf, uniqueName } from 'test/e2e/support/api';
import { expectError, expectErrors } from 'test/e2e/support/alerts';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

/**
 * A CDN locked by another user refuses the snapshot and queue operations on it, whichever kind the
 * lock is (the original's CheckIfCurrentUserHasCdnLock): PUT snapshot, cdns/{id}/queue_update,
 * servers/{id}/queue_update, servers/{id-or-name}/update and topologies/{name}/queue_update. The
 * holder, and users the lock is shared with, may go on.
 */
describe('CDN locks on snapshots and queue operations', () => {
  const { admin, holder, sharer } = useApp({ users: { holder: 'operations', sharer: 'operations' } });
  let cdn: { id: number; name: string };
  let server: ServerResponse;
  let topology: string;

  const refusal = (username: string) =>
    `user ${username} currently does not have the lock on cdn ${cdn.name}`;
  const pending = async (): Promise<boolean> =>
    responseOf<{ updPending: boolean }[]>(await admin.get(`servers?id=${server.id}`))[0].updPending;

  /** Each operation the lock guards, as `client` sends it. */
  const operations = (client: ApiClient) => ({
    snapshot: () => client.put(`snapshot?cdn=${encodeURIComponent(cdn.name)}`, {}),
    cdnQueue: () => client.post(`cdns/${cdn.id}/queue_update`, { action: 'queue' }),
    serverQueue: () => client.post(`servers/${server.id}/queue_update`, { action: 'queue' }),
    serverUpdate: () => client.post(`servers/${server.id}/update?updated=false`, {}),
    topologyQueue: () =>
      client.post(`topologies/${topology}/queue_update`, { action: 'queue', cdnId: cdn.id }),
  });

  beforeAll(async () => {
    cdn = await createCdn(admin);
    const cachegroup = await createCachegroup(admin);
    server = await createServer(admin, cdn.id, { cachegroupId: cachegroup.id });
    topology = uniqueName('topology');
    const created = await admin.post('topologies', {
      name: topology,
      description: 'locks',
      nodes: [{ cachegroup: cachegroup.name, parents: [] }],
    });
    expect(created.status).toBe(200);
  });

  it.each([true, false])(
    'refuses every guarded operation to others while a lock is held (soft: %s)',
    async (soft) => {
      const lock = await holder.client.post('cdn_locks', {
        cdn: cdn.name,
        message: 'maintenance',
        soft,
        sharedUserNames: [sharer.username],
      });
      expect(lock.status).toBe(200);
      try {
        const before = await pending();
        const stored = async () => responseOf<unknown>(await admin.get(`cdns/${cdn.name}/snapshot`));
        const snapshotBefore = await stored();
        for (const [name, send] of Object.entries(operations(admin))) {
          const res = await send();
          expect({ name, status: res.status }).toEqual({ name, status: 403 });
          expectError(res, 403, refusal('admin'));
        }
        expect(await pending()).toBe(before);
        expect(await stored()).toEqual(snapshotBefore);
        const dequeue = await admin.post(`topologies/${topology}/queue_update`, {
          action: 'dequeue',
          cdnId: cdn.id,
        });
        expect(dequeue.status).toBe(200);
        for (const client of [holder.client, sharer.client]) {
          for (const [name, send] of Object.entries(operations(client))) {
            const res = await send();
            expect({ name, status: res.status }).toEqual({ name, status: 200 });
          }
        }
      } finally {
        expect((await holder.client.delete(`cdn_locks?cdn=${encodeURIComponent(cdn.name)}`)).status).toBe(
          200,
        );
      }
    },
  );

  it('lets anyone go on once the lock is released', async () => {
    for (const [name, send] of Object.entries(operations(admin))) {
      const res = await send();
      expect({ name, status: res.status }).toEqual({ name, status: 200 });
    }
  });

  it('answers the missing CDN or server first, not the lock', async () => {
    await expectErrors([
      [admin.put('snapshot?cdn=no-such-cdn', {}), 404, 'No CDN ID found with that name'],
      [
        admin.post('servers/2147483000/queue_update', { action: 'queue' }),
        404,
        "server ID '2147483000' not found",
      ],
    ]);
  });
});
