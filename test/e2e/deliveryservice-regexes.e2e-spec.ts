import { DataSource } from 'typeorm';
import type {
  DeliveryServiceIdRegex,
  DeliveryServiceRegexes,
} from 'src/modules/delivery-services/regexes/delivery-service-regex.response';
import { responseOf } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import type { DeliveryServiceResponse } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

const VERSIONS = ['3.0', '3.1', '4.0', '4.1', '5.0'];
const CREATED = 'Delivery service regex creation was successful.';
const FIRST_HOST = 'cannot change/ delete a regex with an order of 0 and type name of HOST_REGEXP';

describe('delivery service regexes', () => {
  const { app, admin, operations, readOnly } = useApp({
    users: { operations: 'operations', readOnly: 'read-only' },
  });
  let outsider: CreatedUser;
  let cdnId: number, hostType: number, pathType: number, headerType: number, httpType: number;

  const newDs = (overrides: Record<string, unknown> = {}) => createDeliveryService(admin, cdnId, overrides);
  const path = (dsId: number | string, regexId?: number | string) =>
    regexId === undefined
      ? `deliveryservices/${dsId}/regexes`
      : `deliveryservices/${dsId}/regexes/${regexId}`;
  const regexesOf = async (dsId: number) => responseOf<DeliveryServiceIdRegex[]>(await admin.get(path(dsId)));
  const regexCount = async () =>
    Number(
      (await app.get(DataSource).query<{ n: number | string }[]>('SELECT COUNT(*) AS n FROM regex'))[0].n,
    );
  const hostRegex = (ds: DeliveryServiceResponse) => `.*\\.${ds.xmlId}\\..*`;

  beforeAll(async () => {
    const tenant = await createTenant(admin);
    outsider = await createUser(app, admin, 'operations', tenant.id);
    cdnId = (await createCdn(admin)).id;
    hostType = await typeIdOf(admin, 'HOST_REGEXP');
    pathType = await typeIdOf(admin, 'PATH_REGEXP');
    headerType = await typeIdOf(admin, 'HEADER_REGEXP');
    httpType = await typeIdOf(admin, 'HTTP');
  });

  describe('GET deliveryservices/{id}/regexes', () => {
    it('answers the default HOST_REGEXP of a new delivery service, on every version', async () => {
      const ds = await newDs();
      for (const version of VERSIONS) {
        const res = expectOk(await admin.at(version).get(path(ds.id)));
        expect(res.body).toEqual({
          response: [
            {
              id: expect.any(Number) as number,
              type: hostType,
              typeName: 'HOST_REGEXP',
              setNumber: 0,
              pattern: hostRegex(ds),
            },
          ],
        });
      }
    });

    it('orders by set number whatever orderby says, filters by id and pages', async () => {
      const ds = await newDs();
      const second = responseOf<DeliveryServiceIdRegex>(
        await admin.post(path(ds.id), { type: pathType, setNumber: 5, pattern: '/b/.*' }),
      );
      const first = responseOf<DeliveryServiceIdRegex>(
        await admin.post(path(ds.id), { type: pathType, setNumber: 2, pattern: '/a/.*' }),
      );
      const listed = responseOf<DeliveryServiceIdRegex[]>(
        await admin.get(`${path(ds.id)}?orderby=pattern&sortOrder=desc`),
      );
      expect(listed.map((r) => r.setNumber)).toEqual([0, 2, 5]);
      expect(responseOf(await admin.get(`${path(ds.id)}?id=${second.id}`))).toEqual([second]);
      expect(responseOf(await admin.get(`${path(ds.id)}?limit=1&offset=1`))).toEqual([first]);
      expectError(await admin.get(`${path(ds.id)}?id=x`), 400, 'id cannot parse to integer');
    });

    it('answers an empty list for a missing delivery service or one out of reach', async () => {
      const ds = await newDs();
      expect(responseOf(await admin.get(path(999999)))).toEqual([]);
      expect(responseOf(await outsider.client.get(path(ds.id)))).toEqual([]);
      expect(responseOf(await readOnly.client.get(path(ds.id)))).toHaveLength(1);
    });

    it('refuses an id that is not an integer', async () => {
      expectError(
        await admin.get(path('x')),
        400,
        "getting integer parameters: parameter 'dsid' not an integer",
      );
    });
  });

  describe('GET deliveryservices_regexes', () => {
    it("groups every reachable delivery service's regexes by xmlId, on every version", async () => {
      const ds = await newDs();
      await admin.post(path(ds.id), { type: headerType, setNumber: 1, pattern: 'X-Foo: .*' });
      for (const version of VERSIONS) {
        const res = expectOk(await admin.at(version).get('deliveryservices_regexes'));
        const mine = responseOf<DeliveryServiceRegexes[]>(res).find((entry) => entry.dsName === ds.xmlId);
        expect(mine).toEqual({
          dsName: ds.xmlId,
          regexes: [
            { type: 'HOST_REGEXP', setNumber: 0, pattern: hostRegex(ds) },
            { type: 'HEADER_REGEXP', setNumber: 1, pattern: 'X-Foo: .*' },
          ],
        });
      }
      const outside = responseOf<DeliveryServiceRegexes[]>(
        await outsider.client.get('deliveryservices_regexes'),
      );
      expect(outside.find((entry) => entry.dsName === ds.xmlId)).toBeUndefined();
    });

    it('answers If-Modified-Since: 304 until a regex of a delivery service is added, changed or deleted (D228)', async () => {
      const ds = await newDs();
      const created = responseOf<DeliveryServiceIdRegex>(
        await admin.post(path(ds.id), { type: headerType, setNumber: 1, pattern: 'X-Ims: .*' }),
      );
      // The link's own time is the database's, not the epoch its SQLite default holds.
      const [link] = await app
        .get(DataSource)
        .query<{ t: string | Date }[]>(
          'SELECT last_updated AS t FROM deliveryservice_regex WHERE regex = ?',
          [created.id],
        );
      const linkTime =
        typeof link.t === 'string' ? Date.parse(`${link.t.replace(' ', 'T')}Z`) : link.t.getTime();
      expect(Math.abs(Date.now() - linkTime)).toBeLessThan(60_000);
      const pause = () => new Promise((resolve) => setTimeout(resolve, 1100));
      const since = async (at: string) =>
        (await admin.get('deliveryservices_regexes').set('If-Modified-Since', at)).status;

      await pause();
      const before = new Date().toUTCString();
      expect(await since(before)).toBe(304);
      await pause();
      expectOk(
        await admin.put(path(ds.id, created.id), { type: headerType, setNumber: 2, pattern: 'X-Ims: .*' }),
      );
      expect(await since(before)).toBe(200);

      const after = new Date(Date.now() + 1000).toUTCString();
      await pause();
      await pause();
      expect(await since(after)).toBe(304);
      expectOk(await admin.delete(path(ds.id, created.id)));
      expect(await since(after)).toBe(200);
    });
  });

  describe('POST deliveryservices/{id}/regexes', () => {
    it('creates a regex and answers it, on every version', async () => {
      const ds = await newDs();
      for (const [i, version] of VERSIONS.entries()) {
        const res = await operations.client.at(version).post(path(ds.id), {
          type: pathType,
          setNumber: i + 1,
          pattern: `/v${i}/.*`,
        });
        expectOk(res, CREATED);
        const created = responseOf<DeliveryServiceIdRegex>(res);
        expect(created).toEqual({
          id: expect.any(Number) as number,
          type: pathType,
          typeName: 'PATH_REGEXP',
          setNumber: i + 1,
          pattern: `/v${i}/.*`,
        });
        expect(await regexesOf(ds.id)).toContainEqual(created);
      }
    });

    it('refuses a set number already taken, a negative one, a bad type and a blank pattern', async () => {
      const ds = await newDs();
      const before = await regexCount();
      await expectErrors([
        [
          admin.post(path(ds.id), { type: pathType, setNumber: 0, pattern: '/x' }),
          400,
          "'setNumber' cannot add regex, another regex with the same order exists",
        ],
        [
          admin.post(path(ds.id), { type: pathType, setNumber: -1, pattern: '/x' }),
          400,
          'cannot add regex with order < 0',
        ],
        [
          admin.post(path(ds.id), { type: httpType, setNumber: 1, pattern: '/x' }),
          400,
          "'type' type is not a valid regex type",
        ],
        [
          admin.post(path(ds.id), { setNumber: 0 }),
          400,
          "'type' type not found, 'setNumber' cannot add regex, another regex with the same order exists, 'pattern' cannot be blank",
        ],
        [
          admin.post(path(ds.id), { type: 'PATH_REGEXP', setNumber: 1, pattern: '/x' }),
          400,
          "'type' must be an integer",
        ],
        [
          admin.post(path(ds.id), { type: pathType, setNumber: 2 ** 31, pattern: '/x' }),
          400,
          "'setNumber' must be no greater than 2147483647",
        ],
      ]);
      expectMalformedJson(await admin.raw('post', path(ds.id), '{"type": '));
      expect(await regexCount()).toBe(before);
      expect(await regexesOf(ds.id)).toHaveLength(1);
    });

    it('answers 404 for a missing delivery service before reading the body, 403 out of reach', async () => {
      const ds = await newDs();
      await expectErrors([
        [admin.post(path(999999), { type: 'x' }), 404, 'Not Found'],
        [
          outsider.client.post(path(ds.id), { type: pathType, setNumber: 1, pattern: '/x' }),
          403,
          'not authorized on this tenant',
        ],
      ]);
      expect(await regexesOf(ds.id)).toHaveLength(1);
    });
  });

  describe('PUT deliveryservices/{id}/regexes/{rid}', () => {
    it('changes the pattern, type and set number, on every version', async () => {
      const ds = await newDs();
      const regex = responseOf<DeliveryServiceIdRegex>(
        await admin.post(path(ds.id), { type: pathType, setNumber: 1, pattern: '/old' }),
      );
      for (const [i, version] of VERSIONS.entries()) {
        const res = await operations.client
          .at(version)
          .put(path(ds.id, regex.id), { type: headerType, setNumber: 10 + i, pattern: `X-${i}: .*` });
        expectOk(res, CREATED);
        expect(responseOf(res)).toEqual({
          id: regex.id,
          type: headerType,
          typeName: 'HEADER_REGEXP',
          setNumber: 10 + i,
          pattern: `X-${i}: .*`,
        });
      }
      // Its own set number is no conflict.
      expect(
        (await admin.put(path(ds.id, regex.id), { type: pathType, setNumber: 14, pattern: '/same' })).status,
      ).toBe(200);
    });

    it("refuses changing the first HOST_REGEXP, another regex's set number, and set number 0 as HOST_REGEXP", async () => {
      const ds = await newDs();
      const [host] = await regexesOf(ds.id);
      const regex = responseOf<DeliveryServiceIdRegex>(
        await admin.post(path(ds.id), { type: pathType, setNumber: 1, pattern: '/p' }),
      );
      await admin.post(path(ds.id), { type: pathType, setNumber: 2, pattern: '/q' });
      const before = await regexesOf(ds.id);
      await expectErrors([
        [admin.put(path(ds.id, host.id), { type: hostType, setNumber: 3, pattern: '.*' }), 400, FIRST_HOST],
        [
          admin.put(path(ds.id, regex.id), { type: pathType, setNumber: 2, pattern: '/p' }),
          400,
          "'setNumber' cannot add regex, another regex with the same order exists",
        ],
        [
          admin.put(path(ds.id, regex.id), { type: hostType, setNumber: 0, pattern: '/p' }),
          400,
          "'setNumber' cannot update regex with set number 0 and type HOST_REGEXP",
        ],
        [
          admin.put(path(ds.id, regex.id), { type: pathType, setNumber: 1, pattern: 7 }),
          400,
          "'pattern' must be a string",
        ],
      ]);
      expectMalformedJson(await admin.raw('put', path(ds.id, regex.id), '{'));
      expect(await regexesOf(ds.id)).toEqual(before);
    });

    it('answers 404 for a regex of another delivery service or a missing one, 403 out of reach', async () => {
      const ds = await newDs();
      const other = await newDs();
      const [otherHost] = await regexesOf(other.id);
      const body = { type: pathType, setNumber: 3, pattern: '/p' };
      await expectErrors([
        [admin.put(path(ds.id, otherHost.id), body), 404, 'regex not found for this delivery service'],
        [admin.put(path(999999, otherHost.id), body), 404, 'Not Found'],
        [outsider.client.put(path(other.id, otherHost.id), body), 403, 'not authorized on this tenant'],
        [
          admin.put(path(ds.id, 'x'), body),
          400,
          "getting integer parameters: parameter 'regexid' not an integer",
        ],
      ]);
    });
  });

  it('PUT and DELETE answer 412 when the regex changed since If-Unmodified-Since', async () => {
    const ds = await newDs();
    const regex = responseOf<DeliveryServiceIdRegex>(
      await admin.post(path(ds.id), { type: pathType, setNumber: 1, pattern: '/cond' }),
    );
    const past = new Date(Date.now() - 3600_000).toUTCString();
    const modified = 'resource was modified since the time specified by the request headers';
    expectError(
      await admin
        .put(path(ds.id, regex.id), { type: pathType, setNumber: 1, pattern: '/changed' })
        .set('If-Unmodified-Since', past),
      412,
      modified,
    );
    expectError(await admin.delete(path(ds.id, regex.id)).set('If-Unmodified-Since', past), 412, modified);
    expect(await regexesOf(ds.id)).toContainEqual(regex);
  });

  describe('DELETE deliveryservices/{id}/regexes/{rid}', () => {
    it('deletes a regex, on every version', async () => {
      const ds = await newDs();
      for (const [i, version] of VERSIONS.entries()) {
        const regex = responseOf<DeliveryServiceIdRegex>(
          await admin.post(path(ds.id), { type: pathType, setNumber: i + 1, pattern: `/d${i}` }),
        );
        const before = await regexCount();
        const res = expectOk(await operations.client.at(version).delete(path(ds.id, regex.id)));
        expect(res.body).toEqual({
          alerts: [{ text: 'deliveryservice_regex was deleted.', level: 'success' }],
        });
        expect(await regexCount()).toBe(before - 1);
        expect(await regexesOf(ds.id)).toHaveLength(1);
      }
    });

    it('refuses the first HOST_REGEXP, the last regex, unknown ones and out of reach', async () => {
      const ds = await newDs();
      const [host] = await regexesOf(ds.id);
      expectError(await admin.delete(path(ds.id, host.id)), 400, `cannot delete regex: ${FIRST_HOST}`);
      const other = await newDs();
      const regex = responseOf<DeliveryServiceIdRegex>(
        await admin.post(path(other.id), { type: pathType, setNumber: 1, pattern: '/only' }),
      );
      await expectErrors([
        [admin.delete(path(ds.id, regex.id)), 404, 'regex not found for this delivery service'],
        [admin.delete(path(999999, regex.id)), 404, 'Not Found'],
        [outsider.client.delete(path(other.id, regex.id)), 403, 'not authorized on this tenant'],
      ]);
      expect(await regexesOf(ds.id)).toEqual([host]);
      expect(await regexesOf(other.id)).toHaveLength(2);
    });

    it('refuses to delete the only regex of a delivery service', async () => {
      const ds = await newDs();
      const [host] = await regexesOf(ds.id);
      // Move the default regex out of set number 0 (as an operator could in the database).
      await app
        .get(DataSource)
        .query('UPDATE deliveryservice_regex SET set_number = 1 WHERE regex = ?', [host.id]);
      expectError(
        await admin.delete(path(ds.id, host.id)),
        400,
        'a delivery service must have at least one regex',
      );
      expect(await regexesOf(ds.id)).toHaveLength(1);
    });
  });

  it('deleting a delivery service deletes its regexes', async () => {
    const ds = await newDs();
    await admin.post(path(ds.id), { type: pathType, setNumber: 1, pattern: '/gone' });
    const before = await regexCount();
    expect((await admin.delete(`deliveryservices/${ds.id}`)).status).toBe(200);
    expect(await regexCount()).toBe(before - 2);
  });
});
