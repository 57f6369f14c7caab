import type { INestApplication } from '@nestjs/common';
import { ApiClient, createUser, expectError, responseOf, uniqueName } from 'test/e2e/support/api';
import { createTestApp } from 'test/e2e/support/app';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';

const MODIFIED = 'resource was modified since the time specified by the request headers';
const DAY = 24 * 3600 * 1000;
const httpDate = (offsetMs: number) => new Date(Date.now() + offsetMs).toUTCString();

interface Cdn {
  id: number;
  name: string;
  domainName: string;
}

/** Conditional requests as the original serves them (docs/api-conventions.md#conditional-requests). */
describe('conditional requests', () => {
  let app: INestApplication;
  let admin: ApiClient;

  const cdnBody = () => {
    const name = uniqueName('ims-cdn');
    return { name, domainName: `${name}.example.net`, dnssecEnabled: false };
  };
  const createCdn = async (): Promise<Cdn> => responseOf<Cdn>(await admin.post('cdns', cdnBody()));

  beforeAll(async () => {
    app = await createTestApp();
    admin = await ApiClient.admin(app);
  });

  afterAll(() => app.close());

  describe('If-Modified-Since on lists', () => {
    it('answers 304 with Last-Modified and no body when nothing changed since', async () => {
      await createCdn();
      const res = await admin.get('cdns').set('If-Modified-Since', httpDate(DAY));
      expect(res.status).toBe(304);
      expect(res.text).toBe('');
      expect(new Date(res.headers['last-modified']).getTime()).toBeLessThanOrEqual(Date.now());
    });

    it('answers the list with Last-Modified when something changed since', async () => {
      await createCdn();
      const res = await admin.get('cdns').set('If-Modified-Since', httpDate(-DAY));
      expect(res.status).toBe(200);
      expect(responseOf<Cdn[]>(res).length).toBeGreaterThan(0);
      expect(res.headers['last-modified']).toEqual(expect.any(String));
    });

    it('counts a deletion as a change', async () => {
      const asnClient = admin;
      const cachegroup = await createCachegroup(asnClient);
      const created = await asnClient.post('asns', {
        asn: 2_000_000 + Math.floor(Math.random() * 1e6),
        cachegroupId: cachegroup.id,
      });
      const asn = responseOf<{ id: number }>(created);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const before = new Date(Date.now()).toUTCString();
      expect((await asnClient.get('asns').set('If-Modified-Since', before)).status).toBe(304);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await asnClient.delete(`asns?id=${asn.id}`)).status).toBe(200);
      expect((await asnClient.get('asns').set('If-Modified-Since', before)).status).toBe(200);
    });

    it('ignores a malformed date', async () => {
      expect((await admin.get('cdns').set('If-Modified-Since', 'yesterday')).status).toBe(200);
    });

    it('still needs a session and the permissions', async () => {
      expectError(
        await ApiClient.anonymous(app).get('cdns').set('If-Modified-Since', httpDate(DAY)),
        401,
        'unauthorized, please log in.',
      );
      const readOnly = await createUser(app, admin, 'read-only');
      expect((await readOnly.client.get('types').set('If-Modified-Since', httpDate(DAY))).status).toBe(304);
    });
  });

  describe('If-Unmodified-Since and If-Match on writes', () => {
    it('answers 412 to a PUT when the row changed after the given time, changing nothing', async () => {
      const cdn = await createCdn();
      const changes = cdnBody();
      expectError(
        await admin.put(`cdns/${cdn.id}`, changes).set('If-Unmodified-Since', httpDate(-DAY)),
        412,
        MODIFIED,
      );
      expect(responseOf<Cdn[]>(await admin.get(`cdns?id=${cdn.id}`))[0].name).toBe(cdn.name);
      expect(
        (await admin.put(`cdns/${cdn.id}`, changes).set('If-Unmodified-Since', httpDate(DAY))).status,
      ).toBe(200);
    });

    it('answers 412 to an If-Match ETag older than the row, and accepts the current one', async () => {
      const created = await admin.post('cdns', cdnBody());
      const etag = created.headers.etag;
      expect(etag).toMatch(/^"v1-[0-9a-z]+"$/);
      expect(created.headers['last-modified']).toEqual(expect.any(String));
      const cdn = responseOf<Cdn>(created);
      expectError(
        await admin
          .put(`cdns/${cdn.id}`, cdnBody())
          .set('If-Match', `"v1-${(BigInt(Date.now() - DAY) * 1_000_000n).toString(36)}"`),
        412,
        MODIFIED,
      );
      const updated = await admin.put(`cdns/${cdn.id}`, cdnBody()).set('If-Match', etag);
      expect(updated.status).toBe(200);
    });

    it('answers 412 to a DELETE of a row changed after the given time, deleting nothing', async () => {
      const cdn = await createCdn();
      expectError(
        await admin.delete(`cdns/${cdn.id}`).set('If-Unmodified-Since', httpDate(-DAY)),
        412,
        MODIFIED,
      );
      expect(responseOf<Cdn[]>(await admin.get(`cdns?id=${cdn.id}`))).toHaveLength(1);
    });

    it('applies to the query-id form too (PUT /asns?id=)', async () => {
      const cachegroup = await createCachegroup(admin);
      const number = 3_000_000 + Math.floor(Math.random() * 1e6);
      const asn = responseOf<{ id: number }>(
        await admin.post('asns', { asn: number, cachegroupId: cachegroup.id }),
      );
      expectError(
        await admin
          .put(`asns?id=${asn.id}`, { asn: number + 1, cachegroupId: cachegroup.id })
          .set('If-Unmodified-Since', httpDate(-DAY)),
        412,
        MODIFIED,
      );
      expect(responseOf<{ asn: number }[]>(await admin.get(`asns?id=${asn.id}`))[0].asn).toBe(number);
    });
  });
});
