import { responseOf } from 'test/e2e/support/api';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, timeFormatOn } from 'test/e2e/support/times';
import { createPhysLocation, createRegion, physLocationBody } from 'test/e2e/support/fixtures/topology';
import type { PhysLocation, Region } from 'test/e2e/support/fixtures/topology';
import { useApp } from 'test/e2e/support/suite';

describe('phys_locations', () => {
  const { admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let region: Region;

  const create = (regionId = region.id): Promise<PhysLocation> => createPhysLocation(admin, regionId);
  const byName = async (name: string, version = '4.0'): Promise<PhysLocation[]> =>
    responseOf<PhysLocation[]>(
      await admin.at(version).get(`phys_locations?name=${encodeURIComponent(name)}`),
    );
  const byId = async (id: number, version = '4.0'): Promise<PhysLocation[]> =>
    responseOf<PhysLocation[]>(await admin.at(version).get(`phys_locations?id=${id}`));
  const count = async (): Promise<number> =>
    responseOf<PhysLocation[]>(await admin.get('phys_locations')).length;

  beforeAll(async () => {
    region = await createRegion(admin);
  });

  describe('GET /phys_locations', () => {
    it('lists phys_locations ordered by name, with the region name and id', async () => {
      const location = await create();
      const res = expectOk(await readOnly.client.get('phys_locations'));
      const locations = responseOf<PhysLocation[]>(res);
      const sent = physLocationBody(region.id);
      expect(locations.find((l) => l.id === location.id)).toEqual({
        ...sent,
        name: location.name,
        shortName: location.shortName,
        id: location.id,
        region: region.name,
        regionId: region.id,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      const names = locations.map((l) => l.name);
      expect(names).toEqual([...names].sort());
    });

    it('filters by id, name and region (the region id)', async () => {
      const other = await createRegion(admin);
      const [one, two] = [await create(other.id), await create(other.id)];
      expect(await byName(one.name)).toEqual([one]);
      expect(await byId(two.id)).toEqual([two]);
      expect(responseOf<PhysLocation[]>(await admin.get(`phys_locations?region=${other.id}`))).toEqual(
        [one, two].sort((a, b) => a.name.localeCompare(b.name)),
      );
      // Only the original's filters apply; others are ignored.
      const unfiltered = responseOf<PhysLocation[]>(await admin.get(`phys_locations?city=nowhere`));
      expect(unfiltered.map((l) => l.id)).toEqual(expect.arrayContaining([one.id, two.id]));
    });

    it('rejects id and region filters that are not integers', async () => {
      await expectErrors([
        [admin.get('phys_locations?id=x'), 400, 'id cannot parse to integer'],
        [admin.get('phys_locations?region=east'), 400, 'region cannot parse to integer'],
      ]);
    });

    it('orders by a field of the response, either way', async () => {
      await create();
      await create();
      const ids = responseOf<PhysLocation[]>(await admin.get('phys_locations?orderby=id&sortOrder=desc')).map(
        (l) => l.id,
      );
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      const shortNames = responseOf<PhysLocation[]>(await admin.get('phys_locations?orderby=shortName')).map(
        (l) => l.shortName,
      );
      expect(shortNames).toEqual([...shortNames].sort());
    });

    it('pages with limit, offset and page', async () => {
      await create();
      await create();
      const all = responseOf<PhysLocation[]>(await admin.get('phys_locations?orderby=id'));
      expect(all.length).toBeGreaterThanOrEqual(3);
      expect(
        responseOf<PhysLocation[]>(await admin.get('phys_locations?orderby=id&limit=1&offset=1')),
      ).toEqual(all.slice(1, 2));
      expect(responseOf<PhysLocation[]>(await admin.get('phys_locations?orderby=id&limit=2&page=2'))).toEqual(
        all.slice(2, 4),
      );
    });
  });

  describe('POST /phys_locations', () => {
    it.each(['3.0', '4.0', '4.1', '5.0'])('creates a phys_location on %s', async (version) => {
      const sent = physLocationBody(region.id);
      const res = expectOk(
        await admin.at(version).post('phys_locations', { ...sent, region: 'ignored', id: 5 }),
        'physLocation was created.',
      );
      const location = responseOf<PhysLocation>(res);
      expect(location).toEqual({
        ...sent,
        id: expect.any(Number),
        region: region.name,
        lastUpdated: expect.stringMatching(timeFormatOn(version)),
      });
      expect(await byName(sent.name as string, version)).toEqual([location]);
    });

    it('stores absent optional fields as null', async () => {
      const { poc: _p, phone: _ph, email: _e, comments: _c, ...sent } = physLocationBody(region.id);
      const location = responseOf<PhysLocation>(await admin.post('phys_locations', sent));
      expect(location).toMatchObject({ poc: null, phone: null, email: null, comments: null });
    });

    it.each([
      ['a missing name', { name: undefined }, "'name' cannot be blank"],
      ['an empty short name', { shortName: '' }, "'shortName' cannot be blank"],
      ['a null address', { address: null }, "'address' cannot be blank"],
      ['a missing city', { city: undefined }, "'city' cannot be blank"],
      ['a missing state', { state: undefined }, "'state' cannot be blank"],
      ['an empty zip', { zip: '' }, "'zip' cannot be blank"],
      ['a zip too long', { zip: '9'.repeat(65) }, "'zip' the length must be between 1 and 64"],
      ['a missing regionId', { regionId: undefined }, "'regionId' cannot be blank"],
      ['a zero regionId', { regionId: 0 }, "'regionId' cannot be blank"],
      ['a negative regionId', { regionId: -1 }, "'regionId' must be no less than 0"],
      ['a string regionId', { regionId: '1' }, "'regionId' must be an integer"],
      ['a regionId out of range', { regionId: 2 ** 33 }, "'regionId' must be no greater than 2147483647"],
      ['a numeric city', { city: 12 }, "'city' must be a string"],
      ['a boolean email', { email: true }, "'email' must be a string"],
      ['a phone too long', { phone: '5'.repeat(65) }, "'phone' the length must be no more than 64"],
      [
        'several problems, in schema order',
        { name: '', address: '', zip: undefined, regionId: 0 },
        "'name' cannot be blank, 'address' cannot be blank, 'zip' cannot be blank, 'regionId' cannot be blank",
      ],
    ])('rejects %s and writes nothing', async (_case, overrides, text) => {
      const before = await count();
      expectError(
        await admin.post('phys_locations', { ...physLocationBody(region.id), ...overrides }),
        400,
        text,
      );
      expect(await count()).toBe(before);
    });

    it('does not check the email format, as the original does not', async () => {
      const res = await admin.post('phys_locations', {
        ...physLocationBody(region.id),
        email: 'not an email',
      });
      expectSuccessAlert(res, 'physLocation was created.');
    });

    it('rejects malformed JSON and a non-object body', async () => {
      const before = await count();
      const res = await admin.raw('post', 'phys_locations', '{"name":"x",}');
      expectMalformedJson(res);
      expectError(await admin.post('phys_locations', ['x']), 400, 'the request body must be a JSON object');
      expect(await count()).toBe(before);
    });

    it('answers 404 for an unknown region and 400 for a taken name or short name', async () => {
      const sent = physLocationBody(999999);
      expectError(await admin.post('phys_locations', sent), 404, 'region not found');
      expect(await byName(sent.name as string)).toEqual([]);
      const location = await create();
      await expectErrors([
        [
          admin.post('phys_locations', { ...physLocationBody(region.id), name: location.name }),
          400,
          `phys_location name '${location.name}' already exists.`,
        ],
        [
          admin.post('phys_locations', { ...physLocationBody(region.id), shortName: location.shortName }),
          400,
          `phys_location short_name '${location.shortName}' already exists.`,
        ],
      ]);
      expect(await byName(location.name)).toEqual([location]);
    });
  });

  describe('PUT /phys_locations/{id}', () => {
    it.each(['3.0', '4.0', '5.0'])('replaces the phys_location on %s', async (version) => {
      const location = await create();
      const target = await createRegion(admin);
      const { poc: _p, ...changes }: Record<string, unknown> = {
        ...physLocationBody(target.id),
        city: 'Boulder',
      };
      const res = expectOk(
        await admin.at(version).put(`phys_locations/${location.id}`, changes),
        'physLocation was updated.',
      );
      const updated = responseOf<PhysLocation>(res);
      expect(updated).toEqual({
        ...changes,
        poc: null,
        id: location.id,
        region: target.name,
        lastUpdated: expect.stringMatching(timeFormatOn(version)),
      });
      expect(await byId(location.id, version)).toEqual([updated]);
    });

    it('answers 404 for an unknown id or region, 400 for a non-numeric id or a taken name', async () => {
      const [location, other] = [await create(), await create()];
      await expectErrors([
        [
          admin.put('phys_locations/999999', physLocationBody(region.id)),
          404,
          'no physLocation found with this id',
        ],
        [admin.put('phys_locations/x', physLocationBody(region.id)), 400, 'failed to parse key: id'],
        [admin.put(`phys_locations/${location.id}`, physLocationBody(999999)), 404, 'region not found'],
      ]);
      expectError(
        await admin.put(`phys_locations/${location.id}`, {
          ...physLocationBody(region.id),
          shortName: other.shortName,
        }),
        400,
        `phys_location short_name '${other.shortName}' already exists.`,
      );
      expectError(
        await admin.put(`phys_locations/${location.id}`, { ...physLocationBody(region.id), state: '' }),
        400,
        "'state' cannot be blank",
      );
      expect(await byId(location.id)).toEqual([location]);
    });
  });

  describe('DELETE /phys_locations/{id}', () => {
    it.each(['3.0', '4.0', '5.0'])('deletes the phys_location on %s', async (version) => {
      const location = await create();
      const res = await admin.at(version).delete(`phys_locations/${location.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ alerts: [{ text: 'physLocation was deleted.', level: 'success' }] });
      expectApiHeaders(res);
      expect(await byId(location.id)).toEqual([]);
    });

    it('answers 404 for an unknown id and 400 for a non-numeric one', async () => {
      await expectErrors([
        [admin.delete('phys_locations/999999'), 404, 'no physLocation with that key found'],
        [admin.delete('phys_locations/1x'), 400, 'failed to parse key: id'],
      ]);
    });
  });
});
