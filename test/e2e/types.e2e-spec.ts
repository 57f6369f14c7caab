import type { TypeWire } from 'src/modules/types/dto/type.response';
import { responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { expectError, expectErrors } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import { useApp } from 'test/e2e/support/suite';

type Type = Wire<TypeWire>;

describe('types', () => {
  const { admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });

  const body = (overrides: Partial<Type> = {}) => ({
    name: uniqueName('TYPE').replace(/-/g, '_'),
    description: 'a test type',
    useInTable: 'server',
    ...overrides,
  });
  const create = async (overrides: Partial<Type> = {}): Promise<Type> => {
    const res = await admin.post('types', body(overrides));
    expect(res.status).toBe(200);
    return responseOf<Type>(res);
  };
  const byName = async (name: string): Promise<Type[]> =>
    responseOf<Type[]>(await admin.get(`types?name=${encodeURIComponent(name)}`));
  const seeded = async (name: string): Promise<Type> => (await byName(name))[0];

  describe('GET /types', () => {
    it('lists the seeded types ordered by name', async () => {
      const res = expectOk(await readOnly.client.get('types'));
      const types = responseOf<Type[]>(res);
      expect(types.find((t) => t.name === 'ORG')).toEqual({
        id: expect.any(Number),
        name: 'ORG',
        description: expect.any(String),
        useInTable: 'server',
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      const names = types.map((t) => t.name);
      expect(names).toEqual([...names].sort());
    });

    it('filters by name, id and useInTable', async () => {
      const org = await seeded('ORG');
      expect(await byName('ORG')).toEqual([org]);
      expect(responseOf<Type[]>(await admin.get(`types?id=${org.id}`))).toEqual([org]);
      const steering = responseOf<Type[]>(await admin.get('types?useInTable=steering_target')).map(
        (t) => t.name,
      );
      expect(steering).toEqual([
        'STEERING_GEO_ORDER',
        'STEERING_GEO_WEIGHT',
        'STEERING_ORDER',
        'STEERING_WEIGHT',
      ]);
      expectError(await admin.get('types?id=x'), 400, 'id cannot parse to integer');
    });

    it('pages and sorts', async () => {
      const all = responseOf<Type[]>(await admin.get('types?orderby=id&sortOrder=desc'));
      expect(all.map((t) => t.id)).toEqual(all.map((t) => t.id).sort((a, b) => b - a));
      expect(responseOf<Type[]>(await admin.get('types?orderby=id&sortOrder=desc&limit=3&page=2'))).toEqual(
        all.slice(3, 6),
      );
      expectError(await admin.get('types?limit=1&page=0'), 400, 'page parameter must be a positive integer');
    });
  });

  describe('POST /types', () => {
    it('creates a server type', async () => {
      const sent = body();
      const res = expectOk(await admin.post('types', sent), 'type was created.');
      const type = responseOf<Type>(res);
      expect(type).toEqual({ ...sent, id: expect.any(Number), lastUpdated: expect.any(String) });
      expect(await byName(sent.name)).toEqual([type]);
    });

    it('refuses any other useInTable', async () => {
      const sent = body({ useInTable: 'regex' });
      expectError(await admin.post('types', sent), 400, 'can not create type');
      expect(await byName(sent.name)).toEqual([]);
    });

    it.each([
      ['a missing name', { name: undefined }, "'name' cannot be blank"],
      ['an empty description', { description: '' }, "'description' cannot be blank"],
      ['a missing useInTable', { useInTable: undefined }, "'use_in_table' cannot be blank"],
      ['a numeric name', { name: 7 }, "'name' must be a string"],
      [
        'nothing at all',
        { name: '', description: '', useInTable: '' },
        "'name' cannot be blank, 'description' cannot be blank, 'use_in_table' cannot be blank",
      ],
    ])('rejects %s', async (_case, overrides, text) => {
      const before = responseOf<Type[]>(await admin.get('types')).length;
      expectError(await admin.post('types', { ...body(), ...overrides }), 400, text);
      expect(responseOf<Type[]>(await admin.get('types'))).toHaveLength(before);
    });

    it('restricts names to letters, digits, dash and underscore on 5.0 only', async () => {
      const spaced = body({ name: `${uniqueName('A')} B` });
      expectError(
        await admin.at('5.0').post('types', spaced),
        400,
        "'name' must consist of only alphanumeric, dash, or underscore characters",
      );
      expect((await admin.at('4.0').post('types', spaced)).status).toBe(200);
    });

    it('rejects a duplicate name', async () => {
      const type = await create();
      expectError(
        await admin.post('types', body({ name: type.name })),
        400,
        `type name '${type.name}' already exists.`,
      );
    });
  });

  describe('PUT /types/{id}', () => {
    it('updates a server type', async () => {
      const type = await create();
      const changes = body({ description: 'changed' });
      const res = expectOk(await admin.put(`types/${type.id}`, changes), 'type was updated.');
      expect(responseOf<Type>(res)).toEqual({ ...changes, id: type.id, lastUpdated: expect.any(String) });
      expect(await byName(changes.name)).toHaveLength(1);
    });

    it('refuses to change a type that is not a server type, or to make one into another kind', async () => {
      const cachegroupType = await seeded('EDGE_LOC');
      expectError(
        await admin.put(`types/${cachegroupType.id}`, body({ useInTable: 'server' })),
        400,
        'can not update type',
      );
      const type = await create();
      expectError(
        await admin.put(`types/${type.id}`, body({ useInTable: 'cachegroup' })),
        400,
        'can not update type',
      );
      expect(await seeded('EDGE_LOC')).toEqual(cachegroupType);
      expect(await byName(type.name)).toEqual([type]);
    });

    it('answers 404 for an unknown id and 400 for a bad one', async () => {
      await expectErrors([
        [admin.put('types/999999', body()), 404, 'no type found with this id'],
        [admin.put('types/1x', body()), 400, 'failed to parse key: id'],
      ]);
    });
  });

  describe('DELETE /types/{id}', () => {
    it('deletes a server type', async () => {
      const type = await create();
      const res = await admin.delete(`types/${type.id}`);
      expect(res.body).toEqual({ alerts: [{ text: 'type was deleted.', level: 'success' }] });
      expectApiHeaders(res);
      expect(await byName(type.name)).toEqual([]);
    });

    it('refuses to delete a type that is not a server type', async () => {
      const regex = await seeded('HOST_REGEXP');
      expectError(await admin.delete(`types/${regex.id}`), 400, 'can not delete type');
      expect(await seeded('HOST_REGEXP')).toEqual(regex);
    });

    it('answers 404 for an unknown id', async () => {
      expectError(await admin.delete('types/999999'), 404, 'no type with that key found');
    });
  });
});
