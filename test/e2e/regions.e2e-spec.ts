import { responseOf, uniqueName } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import { createDivision, createPhysLocation, createRegion } from 'test/e2e/support/fixtures/topology';
import type { Division, Region } from 'test/e2e/support/fixtures/topology';
import { useApp } from 'test/e2e/support/suite';

describe('regions', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let division: Division;

  const byName = async (name: string): Promise<Region[]> =>
    responseOf<Region[]>(await admin.get(`regions?name=${encodeURIComponent(name)}`));
  const byId = async (id: number): Promise<Region[]> =>
    responseOf<Region[]>(await admin.get(`regions?id=${id}`));
  const count = async (): Promise<number> => responseOf<Region[]>(await admin.get('regions')).length;

  beforeAll(async () => {
    division = await createDivision(admin);
  });

  describe('GET /regions', () => {
    it('lists regions ordered by name, with the division id as `division` and its name', async () => {
      const region = await createRegion(admin, division.id);
      const res = expectOk(await readOnly.client.get('regions'));
      const regions = responseOf<Region[]>(res);
      expect(regions.find((r) => r.id === region.id)).toEqual({
        id: region.id,
        name: region.name,
        division: division.id,
        divisionName: division.name,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      const names = regions.map((r) => r.name);
      expect(names).toEqual([...names].sort());
    });

    it('filters by id, name and division', async () => {
      const other = await createDivision(admin);
      const [one, two] = [await createRegion(admin, other.id), await createRegion(admin, other.id)];
      expect(await byName(one.name)).toEqual([one]);
      expect(await byId(two.id)).toEqual([two]);
      const inDivision = responseOf<Region[]>(await admin.get(`regions?division=${other.id}`));
      expect(inDivision).toEqual([one, two].sort((a, b) => a.name.localeCompare(b.name)));
      expect(await byName('no-such-region')).toEqual([]);
    });

    it('rejects id and division filters that are not integers', async () => {
      await expectErrors([
        [admin.get('regions?id=abc'), 400, 'id cannot parse to integer'],
        [admin.get('regions?division=x'), 400, 'division cannot parse to integer'],
      ]);
    });

    it('orders by a field of the response, either way', async () => {
      await createRegion(admin);
      await createRegion(admin);
      const ids = responseOf<Region[]>(await admin.get('regions?orderby=id&sortOrder=desc')).map((r) => r.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      const names = responseOf<Region[]>(await admin.get('regions?orderby=divisionName')).map(
        (r) => r.divisionName,
      );
      expect(names).toEqual([...names].sort());
    });

    it('pages with limit, offset and page', async () => {
      await createRegion(admin, division.id);
      await createRegion(admin, division.id);
      const all = responseOf<Region[]>(await admin.get('regions?orderby=id'));
      expect(all.length).toBeGreaterThanOrEqual(3);
      expect(responseOf<Region[]>(await admin.get('regions?orderby=id&limit=1'))).toEqual(all.slice(0, 1));
      expect(responseOf<Region[]>(await admin.get('regions?orderby=id&limit=1&offset=2'))).toEqual(
        all.slice(2, 3),
      );
      expect(responseOf<Region[]>(await admin.get('regions?orderby=id&limit=2&page=2'))).toEqual(
        all.slice(2, 4),
      );
    });
  });

  describe('POST /regions', () => {
    it.each(['3.0', '4.0', '4.1', '5.0'])('creates a region on %s, naming its division', async (version) => {
      const name = uniqueName('region');
      const res = await admin
        .at(version)
        .post('regions', { name, division: division.id, divisionName: 'ignored' });
      expectOk(res, 'region was created.');
      const region = responseOf<Region>(res);
      expect(region).toEqual({
        id: expect.any(Number),
        name,
        division: division.id,
        divisionName: division.name,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      expect(await byName(name)).toEqual([region]);
    });

    it.each([
      ['a missing name', { name: undefined }, "region 'name' is required"],
      ['an empty name', { name: '' }, "region 'name' is required"],
      ['a missing division', { division: undefined }, "region 'division' is required"],
      ['a zero division', { division: 0 }, "region 'division' is required"],
      ['a null division', { division: null }, "region 'division' is required"],
      ['a numeric name', { name: 7 }, "'name' must be a string"],
      ['a string division', { division: '1' }, "'division' must be an integer"],
      ['a fractional division', { division: 1.5 }, "'division' must be an integer"],
      ['a division out of range', { division: 2 ** 40 }, "'division' must be no greater than 2147483647"],
    ])('rejects %s and writes nothing', async (_case, overrides, text) => {
      const before = await count();
      const body = { name: uniqueName('region'), division: division.id, ...overrides };
      expectError(await admin.post('regions', body), 400, text);
      expect(await count()).toBe(before);
    });

    it('rejects malformed JSON', async () => {
      const res = await admin.raw('post', 'regions', '{');
      expectMalformedJson(res);
    });

    it('answers 404 for an unknown division and 400 for a taken name', async () => {
      const name = uniqueName('region');
      await expectErrors([
        [admin.post('regions', { name, division: 999999 }), 404, 'division not found'],
        [admin.post('regions', { name, division: -3 }), 404, 'division not found'],
      ]);
      expect(await byName(name)).toEqual([]);
      const region = await createRegion(admin, division.id);
      expectError(
        await admin.post('regions', { name: region.name, division: division.id }),
        400,
        `region name '${region.name}' already exists.`,
      );
      expect(await byName(region.name)).toHaveLength(1);
    });
  });

  describe('PUT /regions/{id}', () => {
    it.each(['3.0', '4.0', '4.1', '5.0'])(
      'moves and renames the region on %s, echoing the given divisionName',
      async (version) => {
        const region = await createRegion(admin, division.id);
        const target = await createDivision(admin);
        const name = uniqueName('region');
        const res = await admin.at(version).put(`regions/${region.id}`, {
          name,
          division: target.id,
          divisionName: 'whatever the client says',
        });
        expectOk(res, 'region was updated.');
        expect(responseOf<Region>(res)).toEqual({
          id: region.id,
          name,
          division: target.id,
          divisionName: 'whatever the client says',
          lastUpdated: expect.stringMatching(CUSTOM_TIME),
        });
        // Only `division` took effect; the stored division name is untouched.
        expect(await byId(region.id)).toEqual([
          {
            id: region.id,
            name,
            division: target.id,
            divisionName: target.name,
            lastUpdated: expect.any(String),
          },
        ]);
        expect(responseOf<Division[]>(await admin.get(`divisions?id=${target.id}`))).toEqual([target]);
      },
    );

    it('echoes a null divisionName when the request omits it', async () => {
      const region = await createRegion(admin, division.id);
      const res = await admin.put(`regions/${region.id}`, { name: region.name, division: division.id });
      expectSuccessAlert(res, 'region was updated.');
      expect(responseOf<Region>(res).divisionName).toBeNull();
      expect((await byId(region.id))[0].divisionName).toBe(division.name);
    });

    it('validates name before division, in the original wording', async () => {
      const region = await createRegion(admin, division.id);
      await expectErrors([
        [admin.put(`regions/${region.id}`, {}), 400, "region 'name' is required"],
        [admin.put(`regions/${region.id}`, { name: '', division: 0 }), 400, "region 'name' is required"],
        [admin.put(`regions/${region.id}`, { name: 'x', division: 0 }), 400, "region 'division' is required"],
        [
          admin.put(`regions/${region.id}`, { name: 'x', division: division.id, divisionName: 5 }),
          400,
          "'divisionName' must be a string",
        ],
      ]);
      expect(await byId(region.id)).toEqual([region]);
    });

    it('answers 404 for an unknown region or division and 400 for a taken name, changing nothing', async () => {
      const [region, other] = [
        await createRegion(admin, division.id),
        await createRegion(admin, division.id),
      ];
      await expectErrors([
        [
          admin.put('regions/999999', { name: uniqueName('region'), division: division.id }),
          404,
          'no region found with this id',
        ],
        [
          admin.put(`regions/${region.id}`, { name: region.name, division: 999999 }),
          404,
          'division not found',
        ],
      ]);
      expectError(
        await admin.put(`regions/${region.id}`, { name: other.name, division: division.id }),
        400,
        `region name '${other.name}' already exists.`,
      );
      expectError(
        await admin.put('regions/abc', { name: 'x', division: division.id }),
        400,
        'failed to parse key: id',
      );
      const res = await admin.raw('put', `regions/${region.id}`, '{"name":');
      expect(res.status).toBe(400);
      expect(await byId(region.id)).toEqual([region]);
    });

    it('lets operations update', async () => {
      const operations = await createUser(app, admin, 'operations');
      const region = await createRegion(admin, division.id);
      const res = await operations.client.put(`regions/${region.id}`, {
        name: region.name,
        division: division.id,
      });
      expectSuccessAlert(res, 'region was updated.');
    });
  });

  describe('DELETE /regions', () => {
    it.each([
      ['id', (r: Region) => `id=${r.id}`],
      ['name', (r: Region) => `name=${encodeURIComponent(r.name)}`],
      ['id and name', (r: Region) => `id=${r.id}&name=${encodeURIComponent(r.name)}`],
    ])('deletes a region by %s', async (_case, query) => {
      const region = await createRegion(admin, division.id);
      const res = await admin.delete(`regions?${query(region)}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ alerts: [{ text: 'region was deleted.', level: 'success' }] });
      expectApiHeaders(res);
      expect(await byId(region.id)).toEqual([]);
    });

    it.each(['3.0', '5.0'])('deletes on %s too', async (version) => {
      const region = await createRegion(admin, division.id);
      expectSuccessAlert(await admin.at(version).delete(`regions?id=${region.id}`), 'region was deleted.');
    });

    it('refuses to delete without a key', async () => {
      const before = await count();
      await expectErrors([
        [admin.delete('regions'), 400, 'Refusing to delete all resources of type Region'],
        [admin.delete('regions?id=&name='), 400, 'Refusing to delete all resources of type Region'],
        [admin.delete('regions?division=1'), 400, 'Refusing to delete all resources of type Region'],
      ]);
      expect(await count()).toBe(before);
    });

    it('answers 404 when no row matches, including an id and a name of different rows', async () => {
      const [one, two] = [await createRegion(admin, division.id), await createRegion(admin, division.id)];
      await expectErrors([
        [admin.delete('regions?id=999999'), 404, 'no region with that key found'],
        [admin.delete('regions?name=no-such-region'), 404, 'no region with that key found'],
        [
          admin.delete(`regions?id=${one.id}&name=${encodeURIComponent(two.name)}`),
          404,
          'no region with that key found',
        ],
        [admin.delete('regions?id=abc'), 400, 'id cannot parse to integer'],
      ]);
      expect(await byId(one.id)).toEqual([one]);
      expect(await byId(two.id)).toEqual([two]);
    });

    it('has no DELETE /regions/{id} route', async () => {
      const region = await createRegion(admin, division.id);
      expectError(
        await admin.delete(`regions/${region.id}`),
        404,
        `The requested path '/api/4.0/regions/${region.id}' does not exist.`,
      );
      expect(await byId(region.id)).toEqual([region]);
    });

    it('refuses a region still used by a phys_location', async () => {
      const region = await createRegion(admin, division.id);
      const location = await createPhysLocation(admin, region.id);
      expectError(
        await admin.delete(`regions?id=${region.id}`),
        400,
        'cannot delete region because it is being used by a phys_location',
      );
      expect(await byId(region.id)).toEqual([region]);
      expectSuccessAlert(await admin.delete(`phys_locations/${location.id}`), 'physLocation was deleted.');
      expectSuccessAlert(await admin.delete(`regions?id=${region.id}`), 'region was deleted.');
    });
  });
});
