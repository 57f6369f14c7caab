import { ApiClient, responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, RFC3339_TIME } from 'test/e2e/support/times';
import type { CoordinateV3, CoordinateV5 } from 'src/modules/coordinates/dto/coordinate.response';
import { useApp } from 'test/e2e/support/suite';

describe('coordinates', () => {
  const { admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });

  const all = async (): Promise<Wire<CoordinateV3>[]> =>
    responseOf<Wire<CoordinateV3>[]>(await admin.get('coordinates'));
  const create = async (body: Record<string, unknown> = {}): Promise<Wire<CoordinateV3>> => {
    const res = await admin.post('coordinates', {
      name: uniqueName('c'),
      latitude: 1.5,
      longitude: -2.25,
      ...body,
    });
    expect(res.status).toBe(200);
    return responseOf<Wire<CoordinateV3>>(res);
  };

  describe('3.x/4.x', () => {
    it.each(['3.0', '4.0', '4.1'])('creates, lists, updates and deletes on %s', async (version) => {
      const client = admin.at(version);
      const name = uniqueName('c');
      const created = expectOk(
        await client.post('coordinates', { name, latitude: 45.5, longitude: -120.25 }),
      );
      expectSuccessAlert(created, 'coordinate was created.');
      const c = responseOf<Wire<CoordinateV3>>(created);
      expect(c).toEqual({
        id: expect.any(Number),
        name,
        latitude: 45.5,
        longitude: -120.25,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      const listed = await readOnly.client.at(version).get(`coordinates?id=${c.id}`);
      expectApiHeaders(listed);
      expect(responseOf(listed)).toEqual([c]);
      const updated = await client.put(`coordinates?id=${c.id}`, {
        name: `${name}.b`,
        latitude: -90,
        longitude: 180,
      });
      expect(updated.status).toBe(200);
      expectSuccessAlert(updated, 'coordinate was updated.');
      expect(responseOf(updated)).toEqual({
        ...c,
        name: `${name}.b`,
        latitude: -90,
        longitude: 180,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      const deleted = await client.delete(`coordinates?id=${c.id}`);
      expect(deleted.body).toEqual({ alerts: [{ level: 'success', text: 'coordinate was deleted.' }] });
      expect(responseOf(await client.get(`coordinates?id=${c.id}`))).toEqual([]);
    });

    it('filters by name and orders by name by default', async () => {
      const c = await create();
      expect(responseOf(await admin.get(`coordinates?name=${c.name}`))).toEqual([c]);
      const names = (await all()).map((x) => x.name);
      expect(names).toEqual([...names].sort());
    });

    it('refuses bad bodies, writing nothing', async () => {
      const c = await create();
      const before = await all();
      await expectErrors([
        [
          admin.post('coordinates', { name: 'a b', latitude: 91, longitude: -181 }),
          400,
          "'name' invalid characters found - Use alphanumeric . or - or _ ., 'latitude' Must be a floating point number within the range +-90, 'longitude' Must be a floating point number within the range +-180",
        ],
        [admin.post('coordinates', { latitude: 1, longitude: 1 }), 400, "'name' cannot be blank"],
        [
          admin.post('coordinates', { name: uniqueName('c'), latitude: 'x', longitude: 1 }),
          400,
          "'latitude' must be a number",
        ],
        [
          admin.post('coordinates', { name: uniqueName('c'), longitude: 1 }),
          400,
          'latitude is a required field',
        ],
        [
          admin.post('coordinates', { name: c.name, latitude: 1, longitude: 1 }),
          400,
          `coordinate name '${c.name}' already exists.`,
        ],
      ]);
      expectMalformedJson(await admin.raw('post', 'coordinates', '{"name"'));
      expectMalformedJson(await admin.raw('put', `coordinates?id=${c.id}`, '{"name"'));
      expect(await all()).toEqual(before);
    });

    it('answers the generic texts for missing and bad ids', async () => {
      await expectErrors([
        [admin.put('coordinates', { name: 'x', latitude: 0, longitude: 0 }), 400, 'missing key: id'],
        [
          admin.put('coordinates?id=x', { name: 'x', latitude: 0, longitude: 0 }),
          400,
          'failed to parse key: id',
        ],
        [
          admin.put('coordinates?id=99999999', { name: 'x', latitude: 0, longitude: 0 }),
          404,
          'no coordinate found with this id',
        ],
        [admin.delete('coordinates'), 400, 'missing key: id'],
        [admin.delete('coordinates?id=99999999'), 404, 'no coordinate with that key found'],
        [admin.get('coordinates?id=x'), 400, 'id cannot parse to integer'],
      ]);
    });

    it('reads a repeated id by its first value (D170)', async () => {
      await expectErrors([
        [admin.delete('coordinates?id=x&id=1'), 400, 'failed to parse key: id'],
        [admin.delete('coordinates?id=99999999&id=x'), 404, 'no coordinate with that key found'],
        [
          admin.at('5.0').delete('coordinates?id=x&id=1'),
          400,
          "getting integer parameters: parameter 'id' not an integer",
        ],
      ]);
    });
  });

  describe('5.0', () => {
    const v5 = (): ApiClient => admin.at('5.0');

    it('creates, updates and deletes with its own texts and RFC 3339 timestamps', async () => {
      const name = uniqueName('c');
      const created = await v5().post('coordinates', { name });
      expect(created.status).toBe(200);
      const c = responseOf<CoordinateV5>(created);
      expect(c).toEqual({
        id: expect.any(Number),
        name,
        latitude: 0,
        longitude: 0,
        lastUpdated: expect.stringMatching(RFC3339_TIME),
      });
      expectSuccessAlert(created, `Coordinate '${name}' (#${c.id}) created`);
      expect(responseOf(await v5().get(`coordinates?id=${c.id}`))).toEqual([c]);
      const updated = await v5().put(`coordinates?id=${c.id}`, {
        id: c.id,
        name,
        latitude: 10,
        longitude: 20,
      });
      expectSuccessAlert(updated, `Coordinate '${name}' (#${c.id}) updated`);
      expect(responseOf(updated)).toEqual({
        ...c,
        latitude: 10,
        longitude: 20,
        lastUpdated: expect.stringMatching(RFC3339_TIME),
      });
      const deleted = await v5().delete(`coordinates?id=${c.id}`);
      expectSuccessAlert(deleted, `Coordinate '${name}' (#${c.id}) deleted`);
      expect(responseOf(deleted)).toEqual({
        ...c,
        latitude: 10,
        longitude: 20,
        lastUpdated: expect.stringMatching(RFC3339_TIME),
      });
    });

    it('answers its own errors', async () => {
      const c = await create();
      expectError(
        await v5().put(`coordinates?id=${c.id}`, { id: c.id + 1, name: c.name }),
        400,
        `ID mismatch; URI specifies ${c.id} but payload is for Coordinate #${c.id + 1}`,
      );
      expectError(
        await v5().put('coordinates?id=99999999', { name: 'x' }),
        404,
        'no such Coordinate: #99999999',
      );
      expectError(await v5().delete('coordinates?id=99999999'), 404, 'no such Coordinate: #99999999');
      expectError(
        await v5().delete('coordinates'),
        400,
        'required parameters missing: missing required parameters: id',
      );
      expectError(
        await v5().delete('coordinates?id=x'),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      );
      expect((await all()).find((x) => x.id === c.id)).toEqual(c);
    });
  });

  it('answers If-Modified-Since with 304 and a stale If-Unmodified-Since with 412 (D33)', async () => {
    const c = await create();
    const future = new Date(Date.now() + 60_000).toUTCString();
    expect((await admin.get('coordinates').set('If-Modified-Since', future)).status).toBe(304);
    const past = new Date(Date.now() - 3_600_000).toUTCString();
    expectError(
      await admin.delete(`coordinates?id=${c.id}`).set('If-Unmodified-Since', past),
      412,
      'resource was modified since the time specified by the request headers',
    );
  });
});
