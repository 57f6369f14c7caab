import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, timeFormatOn } from 'test/e2e/support/times';
import { type Cachegroup, createCachegroup, typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { useApp } from 'test/e2e/support/suite';

const VERSIONS = ['3.0', '4.0', '5.0'];
const NAME_TEXT = 'invalid characters found - Use alphanumeric . or - or _ .';

type Body = Record<string, unknown>;

describe('cachegroups', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let edgeLoc: number, midLoc: number, edgeServerType: number;

  const body = (overrides: Body = {}): Body => {
    const name = uniqueName('cg');
    return { name, shortName: `${name}-s`, typeId: edgeLoc, ...overrides };
  };
  const create = async (overrides: Body = {}, client = admin): Promise<Cachegroup> => {
    const res = await client.post('cachegroups', body(overrides));
    expect(res.status).toBe(200);
    return responseOf<Cachegroup>(res);
  };
  const byName = async (name: string, version = '4.0'): Promise<Cachegroup[]> =>
    responseOf<Cachegroup[]>(await admin.at(version).get(`cachegroups?name=${encodeURIComponent(name)}`));
  const byId = async (id: number, version = '4.0'): Promise<Cachegroup[]> =>
    responseOf<Cachegroup[]>(await admin.at(version).get(`cachegroups?id=${id}`));

  beforeAll(async () => {
    edgeLoc = await typeIdOf(admin, 'EDGE_LOC');
    midLoc = await typeIdOf(admin, 'MID_LOC');
    edgeServerType = await typeIdOf(admin, 'EDGE');
  });

  describe('GET /cachegroups', () => {
    it.each(VERSIONS)('lists cache groups ordered by name, with every field, on %s', async (version) => {
      const parent = await create({ typeId: midLoc });
      const fallback = await create();
      const cg = await create({
        latitude: 12.5,
        longitude: -45.25,
        parentCachegroupId: parent.id,
        secondaryParentCachegroupId: parent.id,
        localizationMethods: ['GEO', 'CZ'],
        fallbacks: [fallback.name],
        fallbackToClosest: false,
      });
      const res = expectOk(await readOnly.client.at(version).get('cachegroups'));
      const all = responseOf<Cachegroup[]>(res);
      expect(all.find((c) => c.id === cg.id)).toEqual({
        id: cg.id,
        name: cg.name,
        shortName: cg.shortName,
        latitude: 12.5,
        longitude: -45.25,
        parentCachegroupName: parent.name,
        parentCachegroupId: parent.id,
        secondaryParentCachegroupName: parent.name,
        secondaryParentCachegroupId: parent.id,
        fallbackToClosest: false,
        localizationMethods: ['GEO', 'CZ'],
        typeName: 'EDGE_LOC',
        typeId: edgeLoc,
        lastUpdated: expect.stringMatching(timeFormatOn(version)),
        fallbacks: [fallback.name],
      });
      expect(all.find((c) => c.id === parent.id)?.typeName).toBe('MID_LOC');
      const names = all.map((c) => c.name);
      expect(names).toEqual([...names].sort());
    });

    it('filters by id, name, shortName and type (id)', async () => {
      const edge = await create();
      const mid = await create({ typeId: midLoc });
      expect(await byId(edge.id)).toEqual([edge]);
      expect(await byName(mid.name)).toEqual([mid]);
      expect(responseOf<Cachegroup[]>(await admin.get(`cachegroups?shortName=${edge.shortName}`))).toEqual([
        edge,
      ]);
      const mids = responseOf<Cachegroup[]>(await admin.get(`cachegroups?type=${midLoc}`));
      expect(mids.map((c) => c.id)).toContain(mid.id);
      expect(mids.every((c) => c.typeId === midLoc)).toBe(true);
      expect(await byName('no-such-cachegroup')).toEqual([]);
    });

    it.each([
      ['id=abc', 'id cannot parse to integer'],
      ['type=EDGE_LOC', 'type cannot parse to integer'],
    ])('rejects %s', async (query, text) => {
      expectError(await admin.get(`cachegroups?${query}`), 400, text);
    });

    it('orders by a field of the response, either way, and ignores unknown fields', async () => {
      await create({ typeId: midLoc });
      await create();
      const byIdDesc = responseOf<Cachegroup[]>(await admin.get('cachegroups?orderby=id&sortOrder=desc')).map(
        (c) => c.id,
      );
      expect(byIdDesc).toEqual([...byIdDesc].sort((a, b) => b - a));
      const byType = responseOf<Cachegroup[]>(await admin.get('cachegroups?orderby=typeName')).map(
        (c) => c.typeName,
      );
      expect(byType).toEqual([...byType].sort());
      const unknown = responseOf<Cachegroup[]>(await admin.get('cachegroups?orderby=nope')).map(
        (c) => c.name,
      );
      expect(unknown).toEqual([...unknown].sort());
    });

    it('pages with limit, offset and page, side rows included', async () => {
      const fallback = await create();
      await create({ localizationMethods: ['CZ', 'DEEP_CZ'], fallbacks: [fallback.name] });
      await create({ localizationMethods: ['GEO'] });
      const all = responseOf<Cachegroup[]>(await admin.get('cachegroups?orderby=id'));
      expect(all.length).toBeGreaterThanOrEqual(3);
      expect(responseOf<Cachegroup[]>(await admin.get('cachegroups?orderby=id&limit=1'))).toEqual(
        all.slice(0, 1),
      );
      expect(responseOf<Cachegroup[]>(await admin.get('cachegroups?orderby=id&limit=2&offset=1'))).toEqual(
        all.slice(1, 3),
      );
      const last = Math.ceil(all.length / 2);
      expect(
        responseOf<Cachegroup[]>(await admin.get(`cachegroups?orderby=id&limit=2&page=${last}`)),
      ).toEqual(all.slice((last - 1) * 2, last * 2));
    });
  });

  describe('POST /cachegroups', () => {
    it.each(VERSIONS)('creates a cache group with its side rows on %s', async (version) => {
      const parent = await create({ typeId: midLoc });
      const second = await create({ typeId: midLoc });
      const fallbacks = [(await create()).name, (await create()).name];
      const sent = body({
        latitude: -33.5,
        longitude: 151,
        parentCachegroupId: parent.id,
        secondaryParentCachegroupId: second.id,
        localizationMethods: ['deep_cz', 'Geo'],
        fallbacks,
        fallbackToClosest: false,
      });
      const res = expectOk(await admin.at(version).post('cachegroups', sent), 'cachegroup was created.');
      const cg = responseOf<Cachegroup>(res);
      expect(cg).toEqual({
        id: expect.any(Number),
        name: sent.name,
        shortName: sent.shortName,
        latitude: -33.5,
        longitude: 151,
        parentCachegroupName: parent.name,
        parentCachegroupId: parent.id,
        secondaryParentCachegroupName: second.name,
        secondaryParentCachegroupId: second.id,
        fallbackToClosest: false,
        localizationMethods: ['DEEP_CZ', 'GEO'],
        typeName: 'EDGE_LOC',
        typeId: edgeLoc,
        lastUpdated: expect.stringMatching(timeFormatOn(version)),
        fallbacks,
      });
      expect(await byId(cg.id, version)).toEqual([cg]);
    });

    it('fills the defaults of the original', async () => {
      const cg = await create({ typeId: midLoc });
      expect(cg).toMatchObject({
        latitude: 0,
        longitude: 0,
        parentCachegroupId: null,
        parentCachegroupName: null,
        secondaryParentCachegroupId: null,
        secondaryParentCachegroupName: null,
        fallbackToClosest: true,
        localizationMethods: [],
        fallbacks: [],
        typeName: 'MID_LOC',
      });
    });

    it('is what the shared fixture uses: a unique cache group of a given type and parent', async () => {
      const parent = await createCachegroup(admin, { typeName: 'MID_LOC' });
      const child = await createCachegroup(admin, { parentCachegroupId: parent.id });
      expect(parent).toMatchObject({ typeName: 'MID_LOC', typeId: midLoc, parentCachegroupId: null });
      expect(child).toMatchObject({
        typeName: 'EDGE_LOC',
        parentCachegroupId: parent.id,
        parentCachegroupName: parent.name,
      });
      expect(await byId(child.id)).toEqual([child]);
    });

    it.each(VERSIONS)(
      'keeps a coordinate of zero on %s, on create, on update and in the list',
      async (version) => {
        const client = admin.at(version);
        for (const [latitude, longitude] of [
          [0, 0],
          [0, 5],
          [5, 0],
        ]) {
          const created = await create({ latitude, longitude }, client);
          expect(created).toMatchObject({ latitude, longitude });
          const listed = async () =>
            responseOf<Cachegroup[]>(await client.get(`cachegroups?id=${created.id}`))[0];
          expect(await listed()).toMatchObject({ latitude, longitude });
          const res = await client.put(`cachegroups/${created.id}`, {
            ...body(),
            latitude: longitude,
            longitude: latitude,
          });
          expect(responseOf<Cachegroup>(res)).toMatchObject({ latitude: longitude, longitude: latitude });
          expect(await listed()).toMatchObject({ latitude: longitude, longitude: latitude });
        }
      },
    );

    it('takes a missing half of a coordinate as 0, on create and on update, and lists it so', async () => {
      const cg = await create({ latitude: 10 });
      expect(cg).toMatchObject({ latitude: 10, longitude: 0 });
      const res = await admin.put(`cachegroups/${cg.id}`, { ...body(), name: cg.name, longitude: -7 });
      expect(responseOf<Cachegroup>(res)).toMatchObject({ latitude: 0, longitude: -7 });
      const none = await admin.put(`cachegroups/${cg.id}`, { ...body(), name: cg.name });
      expect(responseOf<Cachegroup>(none)).toMatchObject({ latitude: 0, longitude: 0 });
      const [listed] = responseOf<Cachegroup[]>(await admin.get(`cachegroups?name=${cg.name}`));
      expect(listed).toMatchObject({ latitude: 0, longitude: 0 });
    });

    it('lets operations create', async () => {
      const operations = await createUser(app, admin, 'operations');
      await create({}, operations.client);
    });

    it.each([
      ['a missing name', { name: undefined }, "'name' cannot be blank"],
      ['an empty short name', { shortName: '' }, "'shortName' cannot be blank"],
      ['a numeric name', { name: 5 }, "'name' must be a string"],
      ['a name with a space', { name: 'my cg' }, `'name' ${NAME_TEXT}`],
      ['a short name with a slash', { shortName: 'a/b' }, `'shortName' ${NAME_TEXT}`],
      [
        'a latitude above 90',
        { latitude: 90.5, longitude: 0 },
        "'latitude' Must be a floating point number within the range +-90",
      ],
      [
        'a longitude below -180',
        { latitude: 0, longitude: -181 },
        "'longitude' Must be a floating point number within the range +-180",
      ],
      ['a string latitude', { latitude: '1.0' }, "'latitude' must be a number"],
      ['a parent id of 0', { parentCachegroupId: 0 }, "'parentCacheGroupID' must be no less than 1"],
      [
        'a negative secondary parent id',
        { secondaryParentCachegroupId: -2 },
        "'secondaryParentCachegroupID' must be no less than 1",
      ],
      ['a string parent id', { parentCachegroupId: '4' }, "'parentCachegroupId' must be an integer"],
      ['a missing typeId', { typeId: undefined }, "missing property: 'typeId'"],
      ['a null typeId', { typeId: null }, "missing property: 'typeId'"],
      ['a string typeId', { typeId: 'EDGE_LOC' }, "'typeId' must be an integer"],
      ['an unknown typeId', { typeId: 999_999_999 }, 'type not found'],
      [
        'a fractional fallbackToClosest',
        { fallbackToClosest: 'yes' },
        "'fallbackToClosest' must be a boolean",
      ],
      [
        'localizationMethods not an array',
        { localizationMethods: 'CZ' },
        "'localizationMethods' must be an array",
      ],
      [
        'an unknown localization method',
        { localizationMethods: ['CZ', 'FOO'] },
        'FOO is not a LocalizationMethod',
      ],
      ['a numeric localization method', { localizationMethods: [1] }, '1 JSON not quoted'],
      ['a null localization method', { localizationMethods: [null] }, 'LocalizationMethod cannot be null'],
      [
        'a repeated localization method',
        { localizationMethods: ['CZ', 'cz'] },
        "'localizationMethods' duplicate value found: 'cz'",
      ],
      ['fallbacks not an array', { fallbacks: 'x' }, "'fallbacks' must be an array"],
      ['fallbacks that are not names', { fallbacks: [3] }, "'fallbacks' must be an array of strings"],
      [
        'two problems, in schema order',
        { name: '', shortName: '' },
        "'name' cannot be blank, 'shortName' cannot be blank",
      ],
    ])('rejects %s and writes nothing', async (_case, overrides, text) => {
      const sent = body(overrides);
      const before = responseOf<Cachegroup[]>(await admin.get('cachegroups')).length;
      expectError(await admin.post('cachegroups', sent), 400, text);
      expect(responseOf<Cachegroup[]>(await admin.get('cachegroups'))).toHaveLength(before);
    });

    it('rejects a type that does not classify cache groups', async () => {
      const sent = body({ typeId: edgeServerType });
      expectError(await admin.post('cachegroups', sent), 400, 'type is not a valid cachegroup type');
      expect(await byName(sent.name as string)).toEqual([]);
    });

    it('allows fallbacks only from and to EDGE_LOC cache groups', async () => {
      const edge = await create();
      const mid = await create({ typeId: midLoc });
      const fromMid = body({ typeId: midLoc, fallbacks: [edge.name] });
      expectError(
        await admin.post('cachegroups', fromMid),
        400,
        `the cache group ${fromMid.name as string} is not allowed to have fallbacks.  It must be of type EDGE_LOC.`,
      );
      const toMid = body({ fallbacks: [edge.name, mid.name] });
      expectError(
        await admin.post('cachegroups', toMid),
        400,
        `the cache group ${mid.name} is not valid as a fallback.  It must exist as a cache group and be of type EDGE_LOC.`,
      );
      const toNothing = body({ fallbacks: ['no-such-cachegroup'] });
      expectError(
        await admin.post('cachegroups', toNothing),
        400,
        'the cache group no-such-cachegroup is not valid as a fallback.  It must exist as a cache group and be of type EDGE_LOC.',
      );
      const twice = body({ fallbacks: [edge.name, edge.name] });
      expectError(
        await admin.post('cachegroups', twice),
        400,
        "'fallbacks' must not contain the same cache group twice",
      );
      for (const sent of [fromMid, toMid, toNothing, twice]) {
        expect(await byName(sent.name as string)).toEqual([]);
      }
      // An empty list is no fallback at all, allowed on any type.
      expect((await create({ typeId: midLoc, fallbacks: [] })).fallbacks).toEqual([]);
    });

    it('answers 404 for an unknown parent and writes nothing', async () => {
      for (const key of ['parentCachegroupId', 'secondaryParentCachegroupId']) {
        const sent = body({ [key]: 999_999_999, localizationMethods: ['CZ'] });
        expectError(await admin.post('cachegroups', sent), 404, 'cachegroup not found');
        expect(await byName(sent.name as string)).toEqual([]);
      }
    });

    it('rejects a duplicate name or short name', async () => {
      const cg = await create();
      await expectErrors([
        [
          admin.post('cachegroups', body({ name: cg.name })),
          400,
          `cachegroup name '${cg.name}' already exists.`,
        ],
        [
          admin.post('cachegroups', body({ shortName: cg.shortName })),
          400,
          `cachegroup short_name '${cg.shortName}' already exists.`,
        ],
      ]);
      expect(await byName(cg.name)).toEqual([cg]);
    });

    it('lets exactly one of concurrent creates of the same name win, side rows and all', async () => {
      const sent = body({ localizationMethods: ['CZ'] });
      const results = await Promise.all(
        [0, 1, 2, 3].map((i) =>
          admin.post('cachegroups', { ...sent, shortName: `${sent.shortName as string}${i}` }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
      const [stored] = await byName(sent.name as string);
      expect(stored.localizationMethods).toEqual(['CZ']);
      expect(await byName(sent.name as string)).toHaveLength(1);
    });

    it('rejects malformed JSON and bodies that are not objects', async () => {
      const before = responseOf<Cachegroup[]>(await admin.get('cachegroups')).length;
      const res = await admin.raw('post', 'cachegroups', '{"name": "x"');
      expectMalformedJson(res);
      expectError(await admin.post('cachegroups', [body()]), 400, 'the request body must be a JSON object');
      expect(responseOf<Cachegroup[]>(await admin.get('cachegroups'))).toHaveLength(before);
    });
  });

  describe('PUT /cachegroups/{id}', () => {
    it.each(VERSIONS)('replaces every field and the side rows on %s', async (version) => {
      const oldFallback = await create();
      const newFallbacks = [(await create()).name, (await create()).name];
      const parent = await create({ typeId: midLoc });
      const cg = await create({ localizationMethods: ['CZ', 'GEO'], fallbacks: [oldFallback.name] });
      const sent = body({
        latitude: 1.25,
        longitude: 2.5,
        parentCachegroupId: parent.id,
        localizationMethods: ['DEEP_CZ'],
        fallbacks: newFallbacks,
        fallbackToClosest: false,
      });
      const res = expectOk(
        await admin.at(version).put(`cachegroups/${cg.id}`, sent),
        'cachegroup was updated.',
      );
      const updated = responseOf<Cachegroup>(res);
      expect(updated).toEqual({
        ...cg,
        name: sent.name,
        shortName: sent.shortName,
        latitude: 1.25,
        longitude: 2.5,
        parentCachegroupId: parent.id,
        parentCachegroupName: parent.name,
        localizationMethods: ['DEEP_CZ'],
        fallbacks: newFallbacks,
        fallbackToClosest: false,
        lastUpdated: expect.stringMatching(timeFormatOn(version)),
      });
      expect(await byId(cg.id, version)).toEqual([updated]);
    });

    it('clears side rows, parents and coordinate when they are omitted, and may change the type', async () => {
      const fallback = await create();
      const parent = await create({ typeId: midLoc });
      const cg = await create({
        latitude: 5,
        longitude: 5,
        parentCachegroupId: parent.id,
        localizationMethods: ['GEO'],
        fallbacks: [fallback.name],
      });
      const res = await admin.put(`cachegroups/${cg.id}`, {
        name: cg.name,
        shortName: cg.shortName,
        typeId: midLoc,
      });
      expect(responseOf<Cachegroup>(res)).toEqual({
        ...cg,
        latitude: 0,
        longitude: 0,
        parentCachegroupId: null,
        parentCachegroupName: null,
        localizationMethods: [],
        fallbacks: [],
        typeId: midLoc,
        typeName: 'MID_LOC',
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
    });

    it('refuses a cache group as its own parent or secondary parent', async () => {
      const cg = await create();
      const keep = { name: cg.name, shortName: cg.shortName, typeId: edgeLoc };
      await expectErrors([
        [
          admin.put(`cachegroups/${cg.id}`, {
            ...keep,
            parentCachegroupId: cg.id,
            latitude: 1,
            longitude: 1,
          }),
          400,
          'a cache group cannot be its own parent',
        ],
        [
          admin.put(`cachegroups/${cg.id}`, { ...keep, secondaryParentCachegroupId: cg.id }),
          400,
          'a cache group cannot be its own secondary parent',
        ],
      ]);
      expect(await byId(cg.id)).toEqual([cg]);
    });

    it('answers 404 for a missing cache group and 400 for a bad key', async () => {
      await expectErrors([
        [admin.put('cachegroups/999999999', body()), 404, 'no cachegroup with id 999999999 found'],
        [admin.put('cachegroups/x1', body()), 400, 'failed to parse key: id'],
      ]);
    });

    it('changes nothing on a bad body, a taken name or an unknown parent', async () => {
      const other = await create();
      const fallback = await create();
      const cg = await create({
        localizationMethods: ['CZ'],
        fallbacks: [fallback.name],
        latitude: 3,
        longitude: 4,
      });
      const keep = { name: cg.name, shortName: cg.shortName, typeId: edgeLoc, localizationMethods: ['GEO'] };
      const attempts: [Body, number, string][] = [
        [
          { ...keep, latitude: 100, longitude: 0 },
          400,
          "'latitude' Must be a floating point number within the range +-90",
        ],
        [{ ...keep, localizationMethods: ['XY'] }, 400, 'XY is not a LocalizationMethod'],
        [{ ...keep, name: other.name }, 400, `cachegroup name '${other.name}' already exists.`],
        [{ ...keep, parentCachegroupId: 999_999_999 }, 404, 'cachegroup not found'],
        [
          { ...keep, fallbacks: ['no-such-cachegroup'] },
          400,
          'the cache group no-such-cachegroup is not valid as a fallback.  It must exist as a cache group and be of type EDGE_LOC.',
        ],
        [{ ...keep, typeId: edgeServerType }, 400, 'type is not a valid cachegroup type'],
      ];
      for (const [sent, status, text] of attempts) {
        expectError(await admin.put(`cachegroups/${cg.id}`, sent), status, text);
      }
      const malformed = await admin.raw('put', `cachegroups/${cg.id}`, '{');
      expect(malformed.status).toBe(400);
      expect(await byId(cg.id)).toEqual([cg]);
    });
  });

  describe('DELETE /cachegroups/{id}', () => {
    it.each(VERSIONS)('deletes a cache group and its side rows on %s', async (version) => {
      const cg = await create({ localizationMethods: ['CZ'] });
      const primary = await create({ fallbacks: [cg.name] });
      const res = expectOk(await admin.at(version).delete(`cachegroups/${cg.id}`), 'cachegroup was deleted.');
      expect(res.body).toEqual({ alerts: [{ text: 'cachegroup was deleted.', level: 'success' }] });
      expect(await byId(cg.id)).toEqual([]);
      // It is no longer anybody's fallback.
      expect((await byId(primary.id))[0].fallbacks).toEqual([]);
    });

    it('answers 404 for a missing cache group and 400 for a bad key', async () => {
      await expectErrors([
        [admin.delete('cachegroups/999999999'), 404, 'no cachegroup with that id found'],
        [admin.delete('cachegroups/-1'), 400, 'failed to parse key: id'],
      ]);
    });

    it('refuses a cache group still used as a parent or a secondary parent', async () => {
      const parent = await create({ typeId: midLoc });
      const child = await create({ parentCachegroupId: parent.id });
      expectError(
        await admin.delete(`cachegroups/${parent.id}`),
        400,
        'cachegroup is in use as a parent cachegroup',
      );
      const secondary = await create({ typeId: midLoc });
      await create({ secondaryParentCachegroupId: secondary.id });
      expectError(
        await admin.delete(`cachegroups/${secondary.id}`),
        400,
        'cachegroup is in use as a secondary parent cachegroup',
      );
      expect(await byId(parent.id)).toEqual([parent]);
      expect(await byId(secondary.id)).toEqual([secondary]);
      expectSuccessAlert(await admin.delete(`cachegroups/${child.id}`), 'cachegroup was deleted.');
      expectSuccessAlert(await admin.delete(`cachegroups/${parent.id}`), 'cachegroup was deleted.');
    });

    it('refuses a cache group still used by an ASN', async () => {
      const cg = await create();
      const asn = await admin.post('asns', { asn: 4_200_000_000 + (cg.id % 1_000_000), cachegroupId: cg.id });
      expect(asn.status).toBe(200);
      expectError(
        await admin.delete(`cachegroups/${cg.id}`),
        400,
        'cachegroup is in use in one or more ASNs',
      );
      expect(await byId(cg.id)).toEqual([cg]);
    });

    it('refuses a cache group still used by a server', async () => {
      const cg = await create();
      await insertServer(app, cg.id, edgeServerType);
      expectError(
        await admin.delete(`cachegroups/${cg.id}`),
        400,
        'cachegroup is in use by one or more servers',
      );
      expect(await byId(cg.id)).toEqual([cg]);
    });
  });
});

/**
 * A server row in `cachegroupId`, written straight to the database: this suite must not depend on
 * the servers API (another module) to prove the foreign key that protects a used cache group.
 */
async function insertServer(app: INestApplication, cachegroupId: number, typeId: number): Promise<void> {
  const db = app.get(DataSource);
  const name = uniqueName('srv');
  const idOf = async (table: string, value: string): Promise<number> => {
    const rows: { id: number }[] = await db.query(`SELECT id FROM ${table} WHERE name = ?`, [value]);
    return Number(rows[0].id);
  };
  await db.query('INSERT INTO division (name) VALUES (?)', [name]);
  await db.query('INSERT INTO region (name, division) VALUES (?, ?)', [name, await idOf('division', name)]);
  await db.query('INSERT INTO phys_location (name, short_name, region) VALUES (?, ?, ?)', [
    name,
    name,
    await idOf('region', name),
  ]);
  await db.query('INSERT INTO cdn (name, domain_name) VALUES (?, ?)', [name, `${name}.example.net`]);
  await db.query(
    'INSERT INTO server (host_name, domain_name, phys_location, cachegroup, type, status, cdn_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [
      name,
      'example.net',
      await idOf('phys_location', name),
      cachegroupId,
      typeId,
      await idOf('status', 'ONLINE'),
      await idOf('cdn', name),
    ],
  );
}
