import { DataSource } from 'typeorm';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, RFC3339_TIME } from 'test/e2e/support/times';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { countRows } from 'test/e2e/support/fixtures/federations';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import type {
  ServerCapabilityV3,
  ServerCapabilityV41,
  ServerCapabilityV5,
} from 'src/modules/server-capabilities/dto/server-capability.response';
import { useApp } from 'test/e2e/support/suite';

const MODIFIED = 'resource was modified since the time specified by the request headers';
const capabilityName = () => uniqueName('cap').replace(/-/g, '_');

describe('server_capabilities', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let cdnId: number;

  const create = async (name = capabilityName(), description?: string): Promise<string> => {
    const res = await admin.at('4.1').post('server_capabilities', { name, description });
    expect(res.status).toBe(200);
    return name;
  };
  const rows = (name: string) => countRows(app, 'server_capability', 'name = ?', [name]);
  const giveToServer = async (name: string): Promise<number> => {
    const server = await createServer(admin, cdnId);
    await app
      .get(DataSource)
      .query('INSERT INTO server_server_capability (server, server_capability) VALUES (?, ?)', [
        server.id,
        name,
      ]);
    return server.id;
  };
  const requireOfDs = async (name: string): Promise<number> => {
    const ds = await insertDeliveryService(app, cdnId);
    await app
      .get(DataSource)
      .query(
        'INSERT INTO deliveryservices_required_capability (deliveryservice_id, required_capability) VALUES (?, ?)',
        [ds.id, name],
      );
    return ds.id;
  };

  beforeAll(async () => {
    cdnId = (await createCdn(admin)).id;
  });

  describe('POST', () => {
    it('creates a capability and answers it as each version shows it', async () => {
      const old = capabilityName();
      const v3 = expectOk(
        await admin.at('3.0').post('server_capabilities', { name: old, description: 'not read' }),
        'server capability was created.',
      );
      expect(responseOf<ServerCapabilityV3>(v3)).toEqual({
        name: old,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      expect(responseOf(await admin.at('4.1').get(`server_capabilities?name=${old}`))).toEqual([
        { name: old, description: '', lastUpdated: expect.stringMatching(CUSTOM_TIME) },
      ]);

      const name = capabilityName();
      const v41 = await admin.at('4.1').post('server_capabilities', { name, description: 'has SSDs' });
      expectSuccessAlert(v41, 'server capability was created.');
      expect(responseOf<ServerCapabilityV41>(v41)).toEqual({
        name,
        description: 'has SSDs',
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });

      const v5 = await admin.at('5.0').post('server_capabilities', { name: capabilityName() });
      expectSuccessAlert(v5, 'server capability was created.');
      expect(responseOf<ServerCapabilityV5>(v5)).toEqual({
        name: expect.any(String),
        description: '',
        lastUpdated: expect.stringMatching(RFC3339_TIME),
      });
    });

    it('refuses a name that is missing, blank, of another type or has other characters, writing nothing', async () => {
      for (const [body, text] of [
        [{}, "'name' cannot be blank"],
        [{ name: '' }, "'name' cannot be blank"],
        [{ name: 5 }, "'name' must be a string"],
        [{ name: 'has space' }, "'name' must consist of only alphanumeric, dash, or underscore characters"],
        [{ name: 'ok', description: 7 }, "'description' must be a string"],
      ] as const) {
        expectError(await admin.post('server_capabilities', body), 400, text);
      }
      expect(await rows('has space')).toBe(0);
      expectMalformedJson(await admin.raw('post', 'server_capabilities', '{"name": '));
    });

    it('refuses a taken name with the original text', async () => {
      const name = await create();
      expectError(
        await admin.at('5.0').post('server_capabilities', { name }),
        400,
        `server_capability name '${name}' already exists.`,
      );
      expect(await rows(name)).toBe(1);
    });
  });

  describe('GET', () => {
    it('lists capabilities ordered by name, as each version shows them, filtered by name', async () => {
      const name = await create(capabilityName(), 'listed');
      const v3 = expectOk(await readOnly.client.at('3.0').get('server_capabilities'));
      const names = responseOf<ServerCapabilityV3[]>(v3).map((sc) => sc.name);
      expect(names).toEqual([...names].sort());
      expect(responseOf(await readOnly.client.at('4.0').get(`server_capabilities?name=${name}`))).toEqual([
        { name, lastUpdated: expect.stringMatching(CUSTOM_TIME) },
      ]);
      expect(responseOf(await readOnly.client.at('4.1').get(`server_capabilities?name=${name}`))).toEqual([
        { name, description: 'listed', lastUpdated: expect.stringMatching(CUSTOM_TIME) },
      ]);
      expect(responseOf(await readOnly.client.at('5.0').get(`server_capabilities?name=${name}`))).toEqual([
        { name, description: 'listed', lastUpdated: expect.stringMatching(RFC3339_TIME) },
      ]);
      expect(responseOf(await readOnly.client.get('server_capabilities?name=no_such_capability'))).toEqual(
        [],
      );
    });

    it('answers 304 to If-Modified-Since when nothing changed since', async () => {
      await create();
      const later = new Date(Date.now() + 60_000).toUTCString();
      const res = await admin.get('server_capabilities').set('If-Modified-Since', later);
      expect(res.status).toBe(304);
    });
  });

  describe('PUT', () => {
    it('renames a capability on 4.0 (the name only), and the servers and delivery services keep it', async () => {
      const old = await create(capabilityName(), 'kept');
      const serverId = await giveToServer(old);
      const dsId = await requireOfDs(old);
      const name = capabilityName();
      const res = await admin
        .at('4.0')
        .put(`server_capabilities?name=${old}`, { name, description: 'ignored' });
      expectSuccessAlert(res, 'server capability was updated.');
      expect(responseOf<ServerCapabilityV3>(res)).toEqual({
        name,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      expect(res.headers.etag).toMatch(/^"v1-[0-9a-z]+"$/);
      expect(responseOf(await admin.at('4.1').get(`server_capabilities?name=${name}`))).toEqual([
        { name, description: 'kept', lastUpdated: expect.any(String) },
      ]);
      expect(await rows(old)).toBe(0);
      expect(
        await countRows(app, 'server_server_capability', 'server = ? AND server_capability = ?', [
          serverId,
          name,
        ]),
      ).toBe(1);
      expect(
        await countRows(
          app,
          'deliveryservices_required_capability',
          'deliveryservice_id = ? AND required_capability = ?',
          [dsId, name],
        ),
      ).toBe(1);
    });

    it('renames and describes a capability from 4.1 on', async () => {
      const old = await create(capabilityName(), 'before');
      const name = capabilityName();
      const v41 = await admin
        .at('4.1')
        .put(`server_capabilities?name=${old}`, { name, description: 'after' });
      expectSuccessAlert(v41, 'server capability was updated');
      expect(responseOf<ServerCapabilityV41>(v41)).toEqual({
        name,
        description: 'after',
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
      const v5 = await admin.at('5.0').put(`server_capabilities?name=${name}`, { name });
      expectSuccessAlert(v5, 'server capability was updated');
      expect(responseOf<ServerCapabilityV5>(v5)).toEqual({
        name,
        description: '',
        lastUpdated: expect.stringMatching(RFC3339_TIME),
      });
    });

    it('answers the 4.0 texts for a missing key, an unknown capability and a taken name', async () => {
      const taken = await create();
      const name = await create();
      await expectErrors([
        [admin.at('4.0').put('server_capabilities', { name: 'x' }), 400, 'missing key: name'],
        [
          admin.at('4.0').put('server_capabilities?name=no_such_capability', { name: 'x' }),
          400,
          'cannot find exactly one server capability with the query string provided',
        ],
      ]);
      expectError(
        await admin.at('4.0').put(`server_capabilities?name=${name}`, { name: taken }),
        400,
        `server_capability name '${taken}' already exists.`,
      );
      expect(await rows(name)).toBe(1);
    });

    it('answers the 4.1+ texts for an unknown capability and a taken name', async () => {
      const taken = await create();
      const name = await create();
      for (const version of ['4.1', '5.0']) {
        expectError(
          await admin.at(version).put('server_capabilities?name=no_such_capability', { name: 'new_name' }),
          400,
          'server capability with name: new_name not found',
        );
        expectError(
          await admin.at(version).put('server_capabilities', { name: 'new_name' }),
          400,
          'server capability with name: new_name not found',
        );
        expectError(
          await admin.at(version).put(`server_capabilities?name=${name}`, { name: taken }),
          400,
          `server_capability name '${taken}' already exists.`,
        );
      }
      expect(await rows('new_name')).toBe(0);
    });

    it('validates the body before anything else, and refuses malformed JSON', async () => {
      const name = await create();
      expectError(
        await admin.at('4.0').put('server_capabilities', { name: 'a b' }),
        400,
        "'name' must consist of only alphanumeric, dash, or underscore characters",
      );
      expectMalformedJson(await admin.raw('put', `server_capabilities?name=${name}`, '{'));
      expect(await rows(name)).toBe(1);
    });

    it('answers 412 when the capability changed after If-Unmodified-Since, changing nothing', async () => {
      const name = await create();
      const res = await admin
        .at('4.1')
        .put(`server_capabilities?name=${name}`, { name: capabilityName() })
        .set('If-Unmodified-Since', new Date(Date.now() - 86_400_000).toUTCString());
      expectError(res, 412, MODIFIED);
      expect(await rows(name)).toBe(1);
    });
  });

  describe('DELETE', () => {
    it('deletes before 5.0 with alerts only', async () => {
      const name = await create();
      const res = expectOk(await admin.at('4.0').delete(`server_capabilities?name=${name}`));
      expect(res.body).toEqual({ alerts: [{ text: 'server capability was deleted.', level: 'success' }] });
      expect(await rows(name)).toBe(0);
    });

    it('deletes on 5.0 answering the name', async () => {
      const name = await create();
      const res = await admin.at('5.0').delete(`server_capabilities?name=${name}`);
      expect(res.body).toEqual({
        alerts: [{ text: 'server capability was deleted.', level: 'success' }],
        response: name,
      });
      expect(await rows(name)).toBe(0);
    });

    it('answers the generic texts before 5.0 for a missing key, an unknown name and one in use', async () => {
      await expectErrors([
        [admin.at('3.0').delete('server_capabilities'), 400, 'missing key: name'],
        [
          admin.at('4.1').delete('server_capabilities?name=no_such_capability'),
          404,
          'no server capability with that key found',
        ],
      ]);
      const onServer = await create();
      await giveToServer(onServer);
      expectError(
        await admin.at('4.0').delete(`server_capabilities?name=${onServer}`),
        400,
        'cannot delete server_capability because it is being used by a server_server_capability',
      );
      const onDs = await create();
      await requireOfDs(onDs);
      expectError(
        await admin.at('3.1').delete(`server_capabilities?name=${onDs}`),
        400,
        'cannot delete server_capability because it is being used by a deliveryservices_required_capability',
      );
      expect(await rows(onServer)).toBe(1);
      expect(await rows(onDs)).toBe(1);
    });

    it('answers the 5.0 texts for an unknown or empty name and one given to servers or required (D60)', async () => {
      await expectErrors([
        [
          admin.at('5.0').delete('server_capabilities?name=no_such_capability'),
          404,
          'no server capability exists by name: no_such_capability',
        ],
        [admin.at('5.0').delete('server_capabilities'), 400, 'no server capability exists for empty name: '],
      ]);
      const onServers = await create();
      await giveToServer(onServers);
      await giveToServer(onServers);
      expectError(
        await admin.at('5.0').delete(`server_capabilities?name=${onServers}`),
        400,
        'can not delete a server capability with 2 assigned servers',
      );
      const onDs = await create();
      await requireOfDs(onDs);
      expectError(
        await admin.at('5.0').delete(`server_capabilities?name=${onDs}`),
        400,
        'cannot delete server_capability because it is being used by a deliveryservices_required_capability',
      );
      expect(await rows(onServers)).toBe(1);
      expect(await rows(onDs)).toBe(1);
    });
  });
});
