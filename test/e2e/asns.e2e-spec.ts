import type { AsnWire } from 'src/modules/cachegroups/dto/asn.response';
import { randomInt } from 'node:crypto';
import { responseOf, type Wire } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import { type Cachegroup, createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { useApp } from 'test/e2e/support/suite';

type Asn = Wire<AsnWire>;

const VERSIONS = ['3.0', '4.0', '5.0'];

/** The two addresses of one association, the query and the path form (docs/original-behaviour.md#asns). */
const FORMS = {
  query: (id: number | string) => `asns?id=${id}`,
  path: (id: number | string) => `asns/${id}`,
};

describe('asns', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let cachegroup: Cachegroup, other: Cachegroup;

  // Numbers unique to this run (each run has its own database; the offset keeps them apart anyway).
  let nextNumber = randomInt(1_000_000, 1_000_000_000);
  const freshNumber = () => nextNumber++;

  const create = async (overrides: Partial<Asn> = {}, client = admin): Promise<Asn> => {
    const res = await client.post('asns', { asn: freshNumber(), cachegroupId: cachegroup.id, ...overrides });
    expect(res.status).toBe(200);
    return responseOf<Asn>(res);
  };
  const byNumber = async (asn: number): Promise<Asn[]> =>
    responseOf<Asn[]>(await admin.get(`asns?asn=${asn}`));
  const byId = async (id: number): Promise<Asn[]> => responseOf<Asn[]>(await admin.get(`asns?id=${id}`));
  /** The association as listed: `cachegroup` is the real name. */
  const listed = (asn: Asn, cg = cachegroup): Asn => ({ ...asn, cachegroup: cg.name, cachegroupId: cg.id });

  beforeAll(async () => {
    cachegroup = await createCachegroup(admin);
    other = await createCachegroup(admin, { typeName: 'MID_LOC' });
  });

  describe('GET /asns', () => {
    it.each(VERSIONS)('lists associations ordered by number on %s', async (version) => {
      const high = await create({ asn: freshNumber() + 1000 });
      const low = await create();
      const res = expectOk(await readOnly.client.at(version).get(`asns?cachegroup=${cachegroup.id}`));
      const asns = responseOf<Asn[]>(res);
      expect(asns).toContainEqual({
        asn: low.asn,
        cachegroup: cachegroup.name,
        cachegroupId: cachegroup.id,
        id: low.id,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      const numbers = asns.map((a) => a.asn);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      expect(numbers.indexOf(low.asn)).toBeLessThan(numbers.indexOf(high.asn));
      const all = responseOf<Asn[]>(await admin.at(version).get('asns')).map((a) => a.asn);
      expect(all).toEqual([...all].sort((a, b) => a - b));
    });

    it('filters by id, asn, cachegroup (id) and cachegroupName', async () => {
      const mine = await create();
      const theirs = await create({ cachegroupId: other.id });
      expect(await byId(mine.id)).toEqual([listed(mine)]);
      expect(await byNumber(theirs.asn)).toEqual([listed(theirs, other)]);
      const inOther = responseOf<Asn[]>(await admin.get(`asns?cachegroup=${other.id}`));
      expect(inOther.map((a) => a.id)).toContain(theirs.id);
      expect(inOther.every((a) => a.cachegroupId === other.id)).toBe(true);
      const named = responseOf<Asn[]>(await admin.get(`asns?cachegroupName=${other.name}`));
      expect(named).toEqual(inOther);
      expect(responseOf<Asn[]>(await admin.get(`asns?asn=${mine.asn}&cachegroup=${other.id}`))).toEqual([]);
      expect(responseOf<Asn[]>(await admin.get('asns?cachegroupName=no-such-cachegroup'))).toEqual([]);
    });

    it.each([
      ['id=abc', 'id cannot parse to integer'],
      ['asn=x1', 'asn cannot parse to integer'],
      ['cachegroup=edge', 'cachegroup cannot parse to integer'],
    ])('rejects %s', async (query, text) => {
      expectError(await admin.get(`asns?${query}`), 400, text);
    });

    it('orders by a field of the response, either way, and ignores unknown fields', async () => {
      await create();
      await create({ cachegroupId: other.id });
      const byIdDesc = responseOf<Asn[]>(await admin.get('asns?orderby=id&sortOrder=desc')).map((a) => a.id);
      expect(byIdDesc).toEqual([...byIdDesc].sort((a, b) => b - a));
      const byCachegroup = responseOf<Asn[]>(await admin.get('asns?orderby=cachegroupId')).map(
        (a) => a.cachegroupId,
      );
      expect(byCachegroup).toEqual([...byCachegroup].sort((a, b) => a - b));
      const unknown = responseOf<Asn[]>(await admin.get('asns?orderby=secret;drop')).map((a) => a.asn);
      expect(unknown).toEqual([...unknown].sort((a, b) => a - b));
    });

    it('pages with limit, offset and page', async () => {
      await create();
      await create();
      await create();
      const all = responseOf<Asn[]>(await admin.get('asns?orderby=id'));
      expect(all.length).toBeGreaterThanOrEqual(3);
      expect(responseOf<Asn[]>(await admin.get('asns?orderby=id&limit=1'))).toEqual(all.slice(0, 1));
      expect(responseOf<Asn[]>(await admin.get('asns?orderby=id&limit=1&offset=1'))).toEqual(all.slice(1, 2));
      expect(responseOf<Asn[]>(await admin.get('asns?orderby=id&limit=2&page=2'))).toEqual(all.slice(2, 4));
      expect(responseOf<Asn[]>(await admin.get('asns?orderby=id&limit=-1'))).toEqual(all);
    });
  });

  describe('POST /asns', () => {
    it.each(VERSIONS)('creates an association on %s, echoing the request cachegroup', async (version) => {
      const asn = freshNumber();
      const res = await admin
        .at(version)
        .post('asns', { asn, cachegroupId: cachegroup.id, cachegroup: 'whatever' });
      expectOk(res, 'asn was created.');
      const created = responseOf<Asn>(res);
      expect(created).toEqual({
        asn,
        cachegroup: 'whatever',
        cachegroupId: cachegroup.id,
        id: expect.any(Number),
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      // The name in the request decides nothing; the list shows the real one (docs/decisions.md#d6).
      expect(await byNumber(asn)).toEqual([listed(created)]);
    });

    it.each(VERSIONS)('answers cachegroup null when the request has none, on %s', async (version) => {
      const res = await admin.at(version).post('asns', { asn: freshNumber(), cachegroupId: other.id });
      expect(res.status).toBe(200);
      expect(responseOf<Asn>(res).cachegroup).toBeNull();
      const explicitNull = await admin
        .at(version)
        .post('asns', { asn: freshNumber(), cachegroupId: other.id, cachegroup: null });
      expect(responseOf<Asn>(explicitNull).cachegroup).toBeNull();
    });

    it('accepts 0 and lets operations create', async () => {
      const operations = await createUser(app, admin, 'operations');
      const zero = await byNumber(0);
      if (zero.length === 0) {
        expect((await create({ asn: 0 }, operations.client)).asn).toBe(0);
      }
      await create({}, operations.client);
    });

    it.each([
      ['a missing asn', { asn: undefined }, "'asn' is required"],
      ['a null asn', { asn: null }, "'asn' is required"],
      ['a negative asn', { asn: -1 }, "'asn' must be no less than 0"],
      ['a string asn', { asn: '65000' }, "'asn' must be an integer"],
      ['a fractional asn', { asn: 1.5 }, "'asn' must be an integer"],
      ['an asn beyond exact integers', { asn: 2 ** 53 }, "'asn' must be no greater than 9007199254740991"],
      ['a missing cachegroupId', { cachegroupId: undefined }, "'cachegroupId' is required"],
      ['a negative cachegroupId', { cachegroupId: -3 }, "'cachegroupId' must be no less than 0"],
      ['a string cachegroupId', { cachegroupId: 'edge' }, "'cachegroupId' must be an integer"],
      ['a numeric cachegroup name', { cachegroup: 7 }, "'cachegroup' must be a string"],
      [
        'two problems, in schema order',
        { asn: undefined, cachegroupId: undefined },
        "'asn' is required, 'cachegroupId' is required",
      ],
    ])('rejects %s and writes nothing', async (_case, overrides, text) => {
      const asn = freshNumber();
      const sent = { asn, cachegroupId: cachegroup.id, ...overrides };
      const before = responseOf<Asn[]>(await admin.get('asns')).length;
      expectError(await admin.post('asns', sent), 400, text);
      expect(await byNumber(asn)).toEqual([]);
      expect(responseOf<Asn[]>(await admin.get('asns'))).toHaveLength(before);
    });

    it('rejects malformed JSON and bodies that are not objects', async () => {
      const before = responseOf<Asn[]>(await admin.get('asns')).length;
      const malformed = await admin.raw('post', 'asns', '{"asn": 1,');
      expectMalformedJson(malformed);
      expectError(
        await admin.post('asns', [{ asn: freshNumber(), cachegroupId: cachegroup.id }]),
        400,
        'the request body must be a JSON object',
      );
      expect(responseOf<Asn[]>(await admin.get('asns'))).toHaveLength(before);
    });

    it('answers 404 for an unknown cache group and writes nothing', async () => {
      const asn = freshNumber();
      expectError(await admin.post('asns', { asn, cachegroupId: 999_999_999 }), 404, 'cachegroup not found');
      expect(await byNumber(asn)).toEqual([]);
    });

    it.each(VERSIONS)('rejects a number already used, on %s', async (version) => {
      const existing = await create();
      expectError(
        await admin.at(version).post('asns', { asn: existing.asn, cachegroupId: other.id }),
        400,
        'an asn with the specified number already exists',
      );
      expect(await byNumber(existing.asn)).toEqual([listed(existing)]);
    });

    it('lets exactly one of concurrent creates of the same number win', async () => {
      const asn = freshNumber();
      const results = await Promise.all(
        [cachegroup, other, cachegroup, other, cachegroup].map((cg) =>
          admin.post('asns', { asn, cachegroupId: cg.id }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
      for (const res of results.filter((r) => r.status === 400)) {
        expectError(res, 400, 'an asn with the specified number already exists');
      }
      expect(await byNumber(asn)).toHaveLength(1);
    });
  });

  describe.each(Object.entries(FORMS))('PUT in the %s form', (_form, address) => {
    it.each(VERSIONS)('updates number and cache group on %s', async (version) => {
      const asn = await create();
      const number = freshNumber();
      const res = await admin
        .at(version)
        .put(address(asn.id), { asn: number, cachegroupId: other.id, cachegroup: 'named-in-request' });
      expectOk(res, 'asn was updated.');
      expect(responseOf<Asn>(res)).toEqual({
        asn: number,
        cachegroup: 'named-in-request',
        cachegroupId: other.id,
        id: asn.id,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      expect(await byId(asn.id)).toEqual([
        { ...listed(asn, other), asn: number, lastUpdated: expect.stringMatching(CUSTOM_TIME) },
      ]);
    });

    it.each(VERSIONS)(
      'answers cachegroup null when omitted, and keeps its own number, on %s',
      async (version) => {
        const asn = await create();
        const res = await admin
          .at(version)
          .put(address(asn.id), { asn: asn.asn, cachegroupId: cachegroup.id });
        expectSuccessAlert(res, 'asn was updated.');
        expect(responseOf<Asn>(res)).toEqual({
          ...asn,
          cachegroup: null,
          lastUpdated: expect.stringMatching(CUSTOM_TIME),
        });
      },
    );

    it.each(VERSIONS)('rejects a number used by another association on %s', async (version) => {
      const asn = await create();
      const taken = await create({ cachegroupId: other.id });
      expectError(
        await admin.at(version).put(address(asn.id), { asn: taken.asn, cachegroupId: cachegroup.id }),
        400,
        'another asn exists for this number',
      );
      expect(await byId(asn.id)).toEqual([listed(asn)]);
    });

    it.each(VERSIONS)('answers 404 for a missing association on %s', async (version) => {
      expectError(
        await admin
          .at(version)
          .put(address(999_999_999), { asn: freshNumber(), cachegroupId: cachegroup.id }),
        404,
        'no asn found with this id',
      );
    });

    it('rejects a key that is not an integer', async () => {
      for (const version of VERSIONS) {
        expectError(
          await admin.at(version).put(address('abc'), { asn: freshNumber(), cachegroupId: cachegroup.id }),
          400,
          'failed to parse key: id',
        );
      }
    });

    it('answers 404 for an unknown cache group and changes nothing', async () => {
      const asn = await create();
      expectError(
        await admin.put(address(asn.id), { asn: freshNumber(), cachegroupId: 999_999_999 }),
        404,
        'cachegroup not found',
      );
      expect(await byId(asn.id)).toEqual([listed(asn)]);
    });

    it.each([
      ['a missing asn', { asn: undefined }, "'asn' is required"],
      ['a negative asn', { asn: -5 }, "'asn' must be no less than 0"],
      ['a boolean asn', { asn: true }, "'asn' must be an integer"],
      ['a missing cachegroupId', { cachegroupId: undefined }, "'cachegroupId' is required"],
      ['a string cachegroupId', { cachegroupId: '1' }, "'cachegroupId' must be an integer"],
    ])('rejects %s and changes nothing', async (_case, overrides, text) => {
      const asn = await create();
      expectError(
        await admin.put(address(asn.id), { asn: freshNumber(), cachegroupId: other.id, ...overrides }),
        400,
        text,
      );
      expect(await byId(asn.id)).toEqual([listed(asn)]);
    });

    it('rejects malformed JSON and changes nothing', async () => {
      const asn = await create();
      const res = await admin.raw('put', address(asn.id), '{"asn": ');
      expectMalformedJson(res);
      expect(await byId(asn.id)).toEqual([listed(asn)]);
    });
  });

  describe.each(Object.entries(FORMS))('DELETE in the %s form', (_form, address) => {
    it.each(VERSIONS)('deletes an association on %s, answering alerts only', async (version) => {
      const asn = await create();
      const res = expectOk(await admin.at(version).delete(address(asn.id)), 'asn was deleted.');
      expect(res.body).toEqual({ alerts: [{ text: 'asn was deleted.', level: 'success' }] });
      expect(await byId(asn.id)).toEqual([]);
    });

    it.each(VERSIONS)('answers 404 for a missing association on %s', async (version) => {
      expectError(await admin.at(version).delete(address(999_999_999)), 404, 'no asn with that key found');
    });

    it('rejects a key that is not an integer', async () => {
      for (const version of VERSIONS) {
        expectError(await admin.at(version).delete(address('1.5')), 400, 'failed to parse key: id');
      }
    });
  });

  describe('the query form without an id', () => {
    it.each(VERSIONS)('answers 400 missing key on %s, for PUT and DELETE', async (version) => {
      const asn = await create();
      expectError(
        await admin.at(version).put('asns', { asn: freshNumber(), cachegroupId: cachegroup.id }),
        400,
        'missing key: id',
      );
      expectError(await admin.at(version).delete('asns'), 400, 'missing key: id');
      expectError(await admin.at(version).delete('asns?id='), 400, 'failed to parse key: id');
      expect(await byId(asn.id)).toEqual([listed(asn)]);
    });
  });

  describe('cache groups with ASNs', () => {
    it('cannot be deleted until their ASNs are gone', async () => {
      const cg = await createCachegroup(admin);
      const asn = await create({ cachegroupId: cg.id });
      expectError(
        await admin.delete(`cachegroups/${cg.id}`),
        400,
        'cachegroup is in use in one or more ASNs',
      );
      expect(responseOf<Cachegroup[]>(await admin.get(`cachegroups?id=${cg.id}`))).toHaveLength(1);
      expectSuccessAlert(await admin.delete(FORMS.path(asn.id)), 'asn was deleted.');
      expectSuccessAlert(await admin.delete(`cachegroups/${cg.id}`), 'cachegroup was deleted.');
    });
  });
});
