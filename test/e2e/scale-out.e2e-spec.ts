import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { App } from 'supertest/types';
import { ApiClient, responseOf, sessionCookieOf, uniqueName } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { createTestApp } from 'test/e2e/support/app';
import { ADMIN_PASSWORD, USER_PASSWORD } from 'test/e2e/support/constants';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';

/**
 * Two instances of the service on one database with one SESSION_SECRET, as behind a load balancer
 * (docs/architecture.md#scale): sessions are accepted by either, and concurrent conflicting writes
 * spread over both leave exactly one winner (decided by the database's unique indexes, or by the row
 * lock of a precondition), and never a 5xx.
 */
describe('scale-out: two instances on one database', () => {
  let first: INestApplication, second: INestApplication;
  let adminOnFirst: ApiClient, adminOnSecond: ApiClient;

  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp();
    adminOnFirst = await ApiClient.admin(first);
    adminOnSecond = new ApiClient(second.getHttpServer() as App, '4.0', adminOnFirst.cookie);
  });

  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('accepts on one instance the session the other issued, and renews it', async () => {
    const login = await request(first.getHttpServer() as App)
      .post('/api/4.0/user/login')
      .send({ u: 'admin', p: ADMIN_PASSWORD });
    const res = await request(second.getHttpServer() as App)
      .get('/api/4.0/user/current')
      .set('Cookie', sessionCookieOf(login));
    expect(res.status).toBe(200);
    expect(responseOf<{ username: string }>(res).username).toBe('admin');
    expect(sessionCookieOf(res)).toMatch(/^mojolicious=/);
  });

  it('ends on the other instance too, within SESSION_CACHE_SECONDS, a session ended on one', async () => {
    const ended = 'session ended - unauthorized, please log in';
    const cacheSeconds = 2; // the default, which the tests run with
    const user = await createUser(first, adminOnFirst, 'read-only');
    const onSecond = new ApiClient(second.getHttpServer() as App, '4.0', user.client.cookie);
    // Both instances have just looked the session up (and keep it for up to cacheSeconds).
    expect((await user.client.get('user/current')).status).toBe(200);
    expect((await onSecond.get('user/current')).status).toBe(200);
    expect((await user.client.post('user/logout')).status).toBe(200);
    const signedOut = Date.now();
    // The instance that ended it forgets it at once…
    expectError(await user.client.get('user/current'), 401, ended);
    // …the other one once its cached lookup expires.
    let res = await onSecond.get('user/current');
    while (res.status === 200 && Date.now() - signedOut < (cacheSeconds + 1) * 1000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      res = await onSecond.get('user/current');
    }
    expectError(res, 401, ended);
    expect(Date.now() - signedOut).toBeLessThanOrEqual(cacheSeconds * 1000 + 250);
  });

  it('ends on the other instance too a session signed out alone, and only that one', async () => {
    const ended = 'session ended - unauthorized, please log in';
    const user = await createUser(first, adminOnFirst, 'read-only');
    const otherSignIn = await ApiClient.login(first, user.username, USER_PASSWORD);
    const onSecond = new ApiClient(second.getHttpServer() as App, '4.0', user.client.cookie);
    const otherOnSecond = new ApiClient(second.getHttpServer() as App, '4.0', otherSignIn.cookie);
    expect((await onSecond.get('user/current')).status).toBe(200);
    expect((await otherOnSecond.get('user/current')).status).toBe(200);
    expect((await user.client.post('user/logout')).status).toBe(200);
    expectError(await user.client.get('user/current'), 401, ended);
    // The other instance refuses it once its cached lookup (SESSION_CACHE_SECONDS) has expired.
    let res = await onSecond.get('user/current');
    while (res.status === 200) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      res = await onSecond.get('user/current');
    }
    expectError(res, 401, ended);
    expect((await otherOnSecond.get('user/current')).status).toBe(200);
    expect((await otherSignIn.get('user/current')).status).toBe(200);
  });

  it('answers If-Modified-Since on one instance with the change made on the other (never a stale 304)', async () => {
    const httpDateNow = () => new Date(Date.now()).toUTCString();
    const pause = () => new Promise((resolve) => setTimeout(resolve, 1100));
    const name = uniqueName('ims-cdn');
    // The first instance reads the table's last change (a 200), then finds nothing newer (a 304)…
    expect(
      (await adminOnFirst.get('cdns').set('If-Modified-Since', 'Sat, 01 Jan 2000 00:00:00 GMT')).status,
    ).toBe(200);
    await pause();
    const before = httpDateNow();
    expect((await adminOnFirst.get('cdns').set('If-Modified-Since', before)).status).toBe(304);
    await pause();
    // …then the second changes it: the first's next check sees that change.
    expect((await adminOnSecond.post('cdns', { name, domainName: `${name}.example.net` })).status).toBe(200);
    const res = await adminOnFirst.get('cdns').set('If-Modified-Since', before);
    expect(res.status).toBe(200);
    expect(responseOf<{ name: string }[]>(res).map((cdn) => cdn.name)).toContain(name);
  });

  it('lets exactly one of concurrent creates of one CDN name win across both instances', async () => {
    const name = uniqueName('race-cdn');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? adminOnFirst : adminOnSecond).post('cdns', {
          name,
          domainName: `d${i}.${name}.example.net`,
          dnssecEnabled: false,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) {
      expectError(loser, 400, `cdn name '${name}' already exists.`);
    }
    expect(responseOf<unknown[]>(await adminOnSecond.get(`cdns?name=${name}`))).toHaveLength(1);
  });

  it('lets exactly one of concurrent creates of one ASN number win across both instances', async () => {
    const cachegroup = await createCachegroup(adminOnFirst);
    const asn = 100_000 + Math.floor(Math.random() * 1_000_000_000);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? adminOnFirst : adminOnSecond).post('asns', { asn, cachegroupId: cachegroup.id }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) {
      expectError(loser, 400, 'an asn with the specified number already exists');
    }
    expect(responseOf<unknown[]>(await adminOnFirst.get(`asns?asn=${asn}`))).toHaveLength(1);
  });

  it('lets exactly one of concurrent PUTs holding one ETag through, across both instances', async () => {
    const name = uniqueName('etag-cdn');
    const created = await adminOnFirst.post('cdns', { name, domainName: `${name}.example.net` });
    const id = responseOf<{ id: number }>(created).id;
    const etag = created.headers.etag;
    const names = Array.from({ length: 12 }, () => uniqueName('etag-cdn'));
    const results = await Promise.all(
      names.map((next, i) =>
        (i % 2 === 0 ? adminOnFirst : adminOnSecond)
          .put(`cdns/${id}`, { name: next, domainName: `${next}.example.net` })
          .set('If-Match', etag),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) {
      expectError(loser, 412, 'resource was modified since the time specified by the request headers');
    }
    const winner = names[results.findIndex((r) => r.status === 200)];
    expect(responseOf<{ name: string }[]>(await adminOnSecond.get(`cdns?id=${id}`))[0].name).toBe(winner);
  });
});
