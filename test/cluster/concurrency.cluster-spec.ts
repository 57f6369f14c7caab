import request, { type Response } from 'supertest';
import type { App } from 'supertest/types';
import { connectNode, nodeStatus } from 'test/cluster/support/galera';
import { CLUSTER_DATABASE, type Instances, nodePortOf, startInstances } from 'test/cluster/support/instances';
import { ApiClient, responseOf, uniqueName } from 'test/e2e/support/api';
import { type CreatedUser, createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { USER_PASSWORD } from 'test/e2e/support/constants';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import { assignedPairs } from 'test/e2e/support/fixtures/delivery-service-servers';
import { createServer } from 'test/e2e/support/fixtures/servers';

/** Request i goes to instance i mod 3, as a load balancer spreads them. */
const spread = <T>(count: number, send: (i: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: count }, (_, i) => send(i)));

const noServerErrors = (results: Response[]): void => {
  expect(results.filter((r) => r.status >= 500).map((r) => `${r.status} ${r.text}`)).toEqual([]);
};

/**
 * Three instances of the service, each on its own node of a three-node Galera cluster (node i
 * first in instance i's DATABASE_URL). Conflicting writes spread over them meet either in one
 * node's locks or in the cluster's certification at commit (a deadlock error, after which the
 * whole request runs again: the loser then sees the winner's row): either way exactly one wins and
 * nobody gets a 5xx.
 */
describe('a three-node Galera cluster, one instance per node', () => {
  let cluster: Instances;
  let admins: ApiClient[];

  beforeAll(async () => {
    cluster = await startInstances();
    admins = cluster.admins;
  });

  afterAll(() => cluster.close());

  it('has three synced nodes, and each instance works on its own node', async () => {
    expect(await nodeStatus(cluster.layout, 0, 'wsrep_cluster_size')).toBe('3');
    for (let i = 0; i < 3; i++) {
      expect(await nodeStatus(cluster.layout, i, 'wsrep_local_state_comment')).toBe('Synced');
      expect(await nodePortOf(cluster.apps[i])).toBe(cluster.layout.basePort + i);
    }
  });

  it('ran the migrations once, on node 1, and every node has them; Galera’s rules hold for every table', async () => {
    const perNode: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const connection = await connectNode(cluster.layout, i, CLUSTER_DATABASE);
      const [migrations] = await connection.query(
        'SELECT timestamp, name FROM schema_migrations ORDER BY id',
      );
      perNode.push(migrations);
      if (i === 2) {
        const [withoutKey] = await connection.query(
          `SELECT t.table_name AS name FROM information_schema.tables t
           WHERE t.table_schema = ? AND t.table_type = 'BASE TABLE' AND NOT EXISTS (
             SELECT 1 FROM information_schema.table_constraints c
             WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name
               AND c.constraint_type = 'PRIMARY KEY')`,
          [CLUSTER_DATABASE],
        );
        expect(withoutKey).toEqual([]);
        const [notInnoDb] = await connection.query(
          `SELECT table_name AS name, engine FROM information_schema.tables
           WHERE table_schema = ? AND table_type = 'BASE TABLE' AND engine <> 'InnoDB'`,
          [CLUSTER_DATABASE],
        );
        expect(notInnoDb).toEqual([]);
      }
      await connection.end();
    }
    expect((perNode[0] as unknown[]).length).toBeGreaterThan(0);
    expect(perNode[1]).toEqual(perNode[0]);
    expect(perNode[2]).toEqual(perNode[0]);
  });

  it('reads on one node what another node just committed (wsrep_sync_wait)', async () => {
    for (let round = 0; round < 10; round++) {
      const name = uniqueName('read-after-write');
      const created = await admins[round % 3].post('cdns', { name, domainName: `${name}.example.net` });
      expect(created.status).toBe(200);
      const id = responseOf<{ id: number }>(created).id;
      const read = await admins[(round + 1) % 3].get(`cdns?id=${id}`);
      expect(responseOf<{ name: string }[]>(read).map((cdn) => cdn.name)).toEqual([name]);
    }
  });

  it('lets exactly one of 20 concurrent creations of one CDN name win across the three instances', async () => {
    const name = uniqueName('race-cdn');
    const results = await spread(20, (i) =>
      admins[i % 3].post('cdns', { name, domainName: `d${i}.${name}.example.net`, dnssecEnabled: false }),
    );
    noServerErrors(results);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) {
      expectError(loser, 400, `cdn name '${name}' already exists.`);
    }
    for (const admin of admins) {
      expect(responseOf<unknown[]>(await admin.get(`cdns?name=${name}`))).toHaveLength(1);
    }
  });

  it('lets exactly one of 20 concurrent creations of one ASN win across the three instances', async () => {
    const cachegroup = await createCachegroup(admins[0]);
    const asn = 100_000 + Math.floor(Math.random() * 1_000_000_000);
    const results = await spread(20, (i) => admins[i % 3].post('asns', { asn, cachegroupId: cachegroup.id }));
    noServerErrors(results);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) {
      expectError(loser, 400, 'an asn with the specified number already exists');
    }
    expect(responseOf<unknown[]>(await admins[2].get(`asns?asn=${asn}`))).toHaveLength(1);
  });

  it('lets exactly one of concurrent PUTs holding one ETag through, across the three instances', async () => {
    const name = uniqueName('etag-cdn');
    const created = await admins[0].post('cdns', { name, domainName: `${name}.example.net` });
    const id = responseOf<{ id: number }>(created).id;
    const etag = created.headers.etag;
    const names = Array.from({ length: 12 }, () => uniqueName('etag-cdn'));
    const results = await spread(12, (i) =>
      admins[i % 3]
        .put(`cdns/${id}`, { name: names[i], domainName: `${names[i]}.example.net` })
        .set('If-Match', etag),
    );
    noServerErrors(results);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) {
      expectError(loser, 412, 'resource was modified since the time specified by the request headers');
    }
    const winner = names[results.findIndex((r) => r.status === 200)];
    for (const admin of admins) {
      expect(responseOf<{ name: string }[]>(await admin.get(`cdns?id=${id}`))[0].name).toBe(winner);
    }
  });

  it('applies concurrent updates of one row from the three instances one after the other (none lost)', async () => {
    const name = uniqueName('upd-cdn');
    const created = await admins[0].post('cdns', { name, domainName: `${name}.example.net` });
    const id = responseOf<{ id: number }>(created).id;
    const names = Array.from({ length: 15 }, () => uniqueName('upd-cdn'));
    const results = await spread(15, (i) =>
      admins[i % 3].put(`cdns/${id}`, { name: names[i], domainName: `${names[i]}.example.net` }),
    );
    // Each either applied (200) or, after its retries ran out, answered 503 with an alert: never a 500.
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    for (const r of results.filter((res) => res.status !== 200)) {
      expectError(r, 503, 'the database is busy; please retry the request');
    }
    const final = responseOf<{ name: string }[]>(await admins[1].get(`cdns?id=${id}`))[0].name;
    expect(names.filter((n, i) => results[i].status === 200)).toContain(final);
  });

  it('takes concurrent snapshots of one CDN through the three instances: one stored, the same on every node', async () => {
    const cdn = await createCdn(admins[0]);
    await createServer(admins[0], cdn.id);
    const results = await spread(9, (i) => admins[i % 3].put(`snapshot?cdn=${cdn.name}`));
    // Each took it (the last commit is the one stored) or, out of retries, answered 503 busy.
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    for (const r of results.filter((res) => res.status !== 200)) {
      expectError(r, 503, 'the database is busy; please retry the request');
    }
    const stored = await Promise.all(
      admins.map(async (admin) =>
        responseOf<{ contentServers?: object }>(await admin.get(`cdns/${cdn.name}/snapshot`)),
      ),
    );
    expect(stored[1]).toEqual(stored[0]);
    expect(stored[2]).toEqual(stored[0]);
    expect(Object.keys(stored[0].contentServers ?? {})).toHaveLength(1);
  });

  describe('server assignments to one delivery service, spread over the three instances', () => {
    let dsIds: number[];
    let serverIds: number[];

    beforeAll(async () => {
      const cdn = await createCdn(admins[0]);
      const cachegroup = await createCachegroup(admins[0]);
      const profile = await createProfile(admins[0], cdn.id);
      serverIds = [];
      for (let i = 0; i < 6; i++) {
        const server = await createServer(admins[i % 3], cdn.id, {
          cachegroupId: cachegroup.id,
          profileName: profile.name,
        });
        serverIds.push(server.id);
      }
      dsIds = [];
      for (let i = 0; i < 2; i++) {
        dsIds.push((await createDeliveryService(admins[i], cdn.id)).id);
      }
    });

    /** The servers of the delivery service as each instance lists them: the same on all three, no pair twice. */
    const assignedEverywhere = async (dsId: number): Promise<number[]> => {
      const perInstance = await Promise.all(admins.map((admin) => assignedPairs(admin, [dsId])));
      expect(perInstance[1]).toEqual(perInstance[0]);
      expect(perInstance[2]).toEqual(perInstance[0]);
      const servers = perInstance[0].map(([, server]) => server);
      expect(new Set(servers).size).toBe(servers.length);
      return servers;
    };

    const okOrBusy = (results: Response[]): void => {
      noServerErrors(results);
      for (const r of results.filter((res) => res.status !== 200)) {
        expectError(r, 503, 'the database is busy; please retry the request');
      }
      expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    };

    it('adds overlapping sets concurrently: the union of those applied, each pair once', async () => {
      const [dsId] = dsIds;
      const sets = Array.from({ length: 12 }, (_, i) => [serverIds[i % 6], serverIds[(i + 1) % 6]]);
      const results = await spread(12, (i) =>
        admins[i % 3].post('deliveryserviceserver', { dsId, servers: sets[i], replace: false }),
      );
      okOrBusy(results);
      const applied = new Set(sets.filter((_, i) => results[i].status === 200).flat());
      expect(await assignedEverywhere(dsId)).toEqual([...applied].sort((a, b) => a - b));
      const connection = await connectNode(cluster.layout, 2, CLUSTER_DATABASE);
      const [twice] = await connection.query(
        'SELECT server, COUNT(*) AS n FROM deliveryservice_server WHERE deliveryservice = ? ' +
          'GROUP BY server HAVING COUNT(*) > 1',
        [dsId],
      );
      await connection.end();
      expect(twice).toEqual([]);
    });

    it('replaces the set concurrently, from none and from some: exactly one request’s set is left', async () => {
      // The second delivery service starts with no server: the replacements then delete nothing,
      // so nothing but the delivery service itself is common to them.
      for (const dsId of [dsIds[1], dsIds[0]]) {
        const sets = Array.from({ length: 6 }, (_, i) => [serverIds[i]]);
        const results = await spread(6, (i) =>
          admins[i % 3].post('deliveryserviceserver', { dsId, servers: sets[i], replace: true }),
        );
        okOrBusy(results);
        const left = await assignedEverywhere(dsId);
        expect(sets.filter((_, i) => results[i].status === 200)).toContainEqual(left);
      }
    });
  });

  describe('ending sessions', () => {
    const ended = 'session ended - unauthorized, please log in';
    // The harness sets it (global-setup.ts): every instance shares it, as it must in production.
    const cacheSeconds = Number(process.env.SESSION_CACHE_SECONDS);

    /** The user's session on each instance, looked up (and so cached) by each. */
    const sessionEverywhere = async (): Promise<{ user: CreatedUser; clients: ApiClient[] }> => {
      const user = await createUser(cluster.apps[0], admins[0], 'read-only');
      const clients = cluster.apps.map(
        (app) => new ApiClient(app.getHttpServer() as App, '4.0', user.client.cookie),
      );
      for (const client of clients) {
        expect((await client.get('user/current')).status).toBe(200);
      }
      return { user, clients };
    };

    /**
     * The session is refused at once by instance `by`, which ended it, and by the other two within
     * SESSION_CACHE_SECONDS of the end (a little more for the requests' own time).
     */
    const expectEndedEverywhere = async (clients: ApiClient[], by: number, endedAt: number) => {
      expectError(await clients[by].get('user/current'), 401, ended);
      for (const client of clients) {
        let res = await client.get('user/current');
        while (res.status === 200 && Date.now() - endedAt < (cacheSeconds + 2) * 1000) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          res = await client.get('user/current');
        }
        expectError(res, 401, ended);
        // Measured by the client: the requests' own time on a busy machine comes on top.
        expect(Date.now() - endedAt).toBeLessThan(cacheSeconds * 1000 + 1000);
      }
    };

    it('runs with a short SESSION_CACHE_SECONDS', () => {
      expect(cacheSeconds).toBeGreaterThan(0);
      expect(cacheSeconds).toBeLessThanOrEqual(2);
    });

    it('ends on all three instances, within SESSION_CACHE_SECONDS, a session signed out on one', async () => {
      const { clients } = await sessionEverywhere();
      expect((await clients[1].post('user/logout')).status).toBe(200);
      await expectEndedEverywhere(clients, 1, Date.now());
    });

    it('ends on all three instances, within SESSION_CACHE_SECONDS, the sessions of a user whose password was changed on one', async () => {
      const { user, clients } = await sessionEverywhere();
      const newPassword = 'a-new-and-unusual-password-43';
      const res = await admins[2].put(`users/${user.id}`, {
        username: user.username,
        email: `${user.username}@example.com`,
        fullName: 'Test user',
        role: 'read-only',
        tenantId: 1,
        localPasswd: newPassword,
        confirmLocalPasswd: newPassword,
      });
      expect(res.status).toBe(200);
      await expectEndedEverywhere(clients, 2, Date.now());
      // Every instance reads the new password at once (wsrep_sync_wait): the old one fails, the new one signs in.
      for (const app of cluster.apps) {
        await expect(ApiClient.login(app, user.username, USER_PASSWORD)).rejects.toThrow(/401/);
        const again = await ApiClient.login(app, user.username, newPassword);
        expect((await again.get('user/current')).status).toBe(200);
      }
    });
  });

  describe('the login limit (LOGIN_MAX_FAILURES per account and client address, counted by each instance)', () => {
    const tooMany = 'Too many failed login attempts; please try again later.';
    const max = Number(process.env.LOGIN_MAX_FAILURES); // the harness sets it
    const login = (instance: number, username: string, password: string) =>
      request(cluster.apps[instance].getHttpServer() as App)
        .post('/api/4.0/user/login')
        .send({ u: username, p: password });

    it('refuses an account on the instance that counted its failures, and only there', async () => {
      const user = await createUser(cluster.apps[0], admins[0], 'read-only');
      for (let i = 0; i < max; i++) {
        expectError(await login(0, user.username, 'wrong'), 401, 'Invalid username or password.');
      }
      expectError(await login(0, user.username, USER_PASSWORD), 429, tooMany);
      // Another instance has counted nothing: the password signs in there (and resets its count only).
      expect((await login(1, user.username, USER_PASSWORD)).status).toBe(200);
      expectError(await login(0, user.username, USER_PASSWORD), 429, tooMany);
    });

    it('lets through at most LOGIN_MAX_FAILURES attempts per instance, concurrent ones included: instances × the limit in all', async () => {
      const user = await createUser(cluster.apps[0], admins[0], 'read-only');
      const results = await spread(3 * max + 9, (i) => login(i % 3, user.username, 'wrong'));
      noServerErrors(results);
      for (let instance = 0; instance < 3; instance++) {
        const own = results.filter((_, i) => i % 3 === instance);
        expect(own.filter((r) => r.status === 401).length).toBe(max);
        for (const r of own.filter((res) => res.status !== 401)) {
          expectError(r, 429, tooMany);
        }
        expectError(await login(instance, user.username, USER_PASSWORD), 429, tooMany);
      }
    });
  });

  it('signs in on any instance with the session another issued', async () => {
    const login = await request(cluster.apps[2].getHttpServer() as App)
      .post('/api/4.0/user/login')
      .send({ u: 'admin', p: process.env.ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    const cookie = ([] as string[])
      .concat(login.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('mojolicious='));
    for (const app of cluster.apps) {
      const res = await request(app.getHttpServer() as App)
        .get('/api/4.0/user/current')
        .set('Cookie', cookie!.split(';')[0]);
      expect(res.status).toBe(200);
    }
  });
});
