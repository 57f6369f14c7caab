import { responseOf, uniqueName } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, timeFormatOn } from 'test/e2e/support/times';
import { createDivision, createRegion, type Division } from 'test/e2e/support/fixtures/topology';
import { useApp } from 'test/e2e/support/suite';

describe('divisions', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });

  const create = (): Promise<Division> => createDivision(admin);
  const byName = async (name: string, version = '4.0'): Promise<Division[]> =>
    responseOf<Division[]>(await admin.at(version).get(`divisions?name=${encodeURIComponent(name)}`));
  const count = async (): Promise<number> => responseOf<Division[]>(await admin.get('divisions')).length;

  describe('GET /divisions', () => {
    it('lists divisions ordered by name', async () => {
      const division = await create();
      const res = expectOk(await readOnly.client.get('divisions'));
      const divisions = responseOf<Division[]>(res);
      expect(divisions.find((d) => d.id === division.id)).toEqual({
        id: division.id,
        name: division.name,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      const names = divisions.map((d) => d.name);
      expect(names).toEqual([...names].sort());
    });

    it('filters by id and name', async () => {
      const [one, two] = [await create(), await create()];
      expect(await byName(one.name)).toEqual([one]);
      expect(responseOf<Division[]>(await admin.get(`divisions?id=${two.id}`))).toEqual([two]);
      expect(responseOf<Division[]>(await admin.get(`divisions?id=${two.id}&name=${one.name}`))).toEqual([]);
      expect(await byName('no-such-division')).toEqual([]);
    });

    it('rejects an id filter that is not an integer', async () => {
      expectError(await admin.get('divisions?id=abc'), 400, 'id cannot parse to integer');
    });

    it('orders by a field of the response, either way, and ignores unknown fields', async () => {
      await create();
      await create();
      const ids = responseOf<Division[]>(await admin.get('divisions?orderby=id&sortOrder=desc')).map(
        (d) => d.id,
      );
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      const names = responseOf<Division[]>(await admin.get('divisions?orderby=nope')).map((d) => d.name);
      expect(names).toEqual([...names].sort());
    });

    it('pages with limit, offset and page', async () => {
      await create();
      await create();
      const all = responseOf<Division[]>(await admin.get('divisions?orderby=id'));
      expect(all.length).toBeGreaterThanOrEqual(3);
      expect(responseOf<Division[]>(await admin.get('divisions?orderby=id&limit=1'))).toEqual(
        all.slice(0, 1),
      );
      expect(responseOf<Division[]>(await admin.get('divisions?orderby=id&limit=1&offset=1'))).toEqual(
        all.slice(1, 2),
      );
      expect(responseOf<Division[]>(await admin.get('divisions?orderby=id&limit=2&page=2'))).toEqual(
        all.slice(2, 4),
      );
      expect(responseOf<Division[]>(await admin.get('divisions?orderby=id&limit=-1'))).toEqual(all);
    });
  });

  describe('POST /divisions', () => {
    it.each(['3.0', '3.1', '4.0', '4.1', '5.0'])('creates a division on %s', async (version) => {
      const name = uniqueName('division');
      const res = expectOk(await admin.at(version).post('divisions', { name }), 'division was created.');
      const division = responseOf<Division>(res);
      expect(division).toEqual({
        id: expect.any(Number),
        name,
        lastUpdated: expect.stringMatching(timeFormatOn(version)),
      });
      expect(await byName(name, version)).toEqual([division]);
    });

    it('lets operations create', async () => {
      const operations = await createUser(app, admin, 'operations');
      const res = await operations.client.post('divisions', { name: uniqueName('division') });
      expectSuccessAlert(res, 'division was created.');
    });

    it.each([
      ['a missing name', {}, "'name' is required"],
      ['a null name', { name: null }, "'name' is required"],
      ['an empty name', { name: '' }, "'name' cannot be blank"],
      ['a numeric name', { name: 42 }, "'name' must be a string"],
      ['a name too long', { name: 'x'.repeat(256) }, "'name' the length must be between 1 and 255"],
    ])('rejects %s and writes nothing', async (_case, body, text) => {
      const before = await count();
      expectError(await admin.post('divisions', body), 400, text);
      expect(await count()).toBe(before);
    });

    it('rejects malformed JSON and a body that is not an object', async () => {
      const before = await count();
      const res = await admin.raw('post', 'divisions', '{"name": "x"');
      expectMalformedJson(res);
      expectError(
        await admin.post('divisions', [{ name: uniqueName('division') }]),
        400,
        'the request body must be a JSON object',
      );
      expect(await count()).toBe(before);
    });

    it('rejects a taken name', async () => {
      const division = await create();
      expectError(
        await admin.post('divisions', { name: division.name }),
        400,
        `division name '${division.name}' already exists.`,
      );
      expect(await byName(division.name)).toHaveLength(1);
    });

    it('lets exactly one of concurrent creates of the same name win', async () => {
      const name = uniqueName('division');
      const results = await Promise.all([0, 1, 2].map(() => admin.post('divisions', { name })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
      expect(await byName(name)).toHaveLength(1);
    });
  });

  describe('PUT /divisions/{id}', () => {
    it.each(['3.0', '4.0', '5.0'])('renames the division on %s', async (version) => {
      const division = await create();
      const name = uniqueName('division');
      const res = expectOk(
        await admin.at(version).put(`divisions/${division.id}`, { name }),
        'division was updated.',
      );
      const updated = responseOf<Division>(res);
      expect(updated).toEqual({
        id: division.id,
        name,
        lastUpdated: expect.stringMatching(timeFormatOn(version)),
      });
      expect(await byName(name, version)).toEqual([updated]);
      expect(await byName(division.name)).toEqual([]);
    });

    it('answers 404 for an unknown id and 400 for a non-numeric one', async () => {
      await expectErrors([
        [admin.put('divisions/999999', { name: uniqueName('d') }), 404, 'no division found with this id'],
        [admin.put('divisions/abc', { name: uniqueName('d') }), 400, 'failed to parse key: id'],
      ]);
    });

    it('rejects bad input and a taken name, changing nothing', async () => {
      const [division, other] = [await create(), await create()];
      await expectErrors([
        [admin.put(`divisions/${division.id}`, { name: '' }), 400, "'name' cannot be blank"],
        [admin.put(`divisions/${division.id}`, { name: true }), 400, "'name' must be a string"],
      ]);
      const res = await admin.raw('put', `divisions/${division.id}`, 'not json');
      expect(res.status).toBe(400);
      expectError(
        await admin.put(`divisions/${division.id}`, { name: other.name }),
        400,
        `division name '${other.name}' already exists.`,
      );
      expect(await byName(division.name)).toEqual([division]);
    });
  });

  describe('DELETE /divisions/{id}', () => {
    it.each(['3.0', '4.0', '5.0'])('deletes the division on %s', async (version) => {
      const division = await create();
      const res = await admin.at(version).delete(`divisions/${division.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ alerts: [{ text: 'division was deleted.', level: 'success' }] });
      expectApiHeaders(res);
      expect(await byName(division.name)).toEqual([]);
    });

    it('answers 404 for an unknown id and 400 for a non-numeric one', async () => {
      await expectErrors([
        [admin.delete('divisions/999999'), 404, 'no division with that key found'],
        [admin.delete('divisions/abc'), 400, 'failed to parse key: id'],
      ]);
    });

    it('refuses a division still used by a region', async () => {
      const division = await create();
      const region = await createRegion(admin, division.id);
      expectError(
        await admin.delete(`divisions/${division.id}`),
        400,
        'cannot delete division because it is being used by a region',
      );
      expect(await byName(division.name)).toEqual([division]);
      expectSuccessAlert(await admin.delete(`regions?id=${region.id}`), 'region was deleted.');
      expectSuccessAlert(await admin.delete(`divisions/${division.id}`), 'division was deleted.');
    });
  });
});
