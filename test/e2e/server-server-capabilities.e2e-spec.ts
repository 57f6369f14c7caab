import { DataSource } from 'typeorm';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, RFC3339_TIME } from 'test/e2e/support/times';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import { countRows } from 'test/e2e/support/fixtures/federations';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import type {
  MultipleServersCapabilitiesV41,
  ServerServerCapabilityV3,
  ServerServerCapabilityV5,
} from 'src/modules/server-capabilities/dto/server-server-capability.response';
import { useApp } from 'test/e2e/support/suite';

const WRONG_TYPE = (id: number) =>
  `server id: ${id} has an incorrect server type. Server capabilities can only be assigned to EDGE or MID servers`;
const capabilityName = () => uniqueName('cap').replace(/-/g, '_');

describe('server_server_capabilities and multiple_servers_capabilities', () => {
  const { app, admin } = useApp();
  let cdnId: number;

  const capability = async (): Promise<string> => {
    const name = capabilityName();
    expect((await admin.post('server_capabilities', { name })).status).toBe(200);
    return name;
  };
  const server = (): Promise<ServerResponse> => createServer(admin, cdnId);
  const pairs = (serverId: number) => countRows(app, 'server_server_capability', 'server = ?', [serverId]);
  const has = (serverId: number, name: string) =>
    countRows(app, 'server_server_capability', 'server = ? AND server_capability = ?', [serverId, name]);
  const setType = (serverId: number, typeName: string) =>
    app
      .get(DataSource)
      .query('UPDATE server SET type = (SELECT id FROM type WHERE name = ?) WHERE id = ?', [
        typeName,
        serverId,
      ]);
  const give = async (serverId: number, name: string) => {
    expect(
      (await admin.post('server_server_capabilities', { serverId, serverCapability: name })).status,
    ).toBe(200);
  };

  beforeAll(async () => {
    cdnId = (await createCdn(admin)).id;
  });

  describe('POST and GET server_server_capabilities', () => {
    it('gives a capability to an EDGE or MID server and lists it as each version shows it', async () => {
      const name = await capability();
      const edge = await server();
      const mid = await server();
      await setType(mid.id, 'MID');
      const res = await admin
        .at('3.0')
        .post('server_server_capabilities', { serverId: edge.id, serverCapability: name });
      expectOk(res, 'server server_capability was created.');
      expect(responseOf<ServerServerCapabilityV3>(res)).toEqual({
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
        serverId: edge.id,
        serverCapability: name,
      });
      const v5 = await admin
        .at('5.0')
        .post('server_server_capabilities', { serverId: mid.id, serverCapability: name });
      expect(responseOf<ServerServerCapabilityV5>(v5)).toEqual({
        lastUpdated: expect.stringMatching(RFC3339_TIME),
        serverId: mid.id,
        serverCapability: name,
      });

      const list = expectOk(await admin.at('4.0').get(`server_server_capabilities?serverCapability=${name}`));
      const expected = [edge, mid]
        .map((s) => ({
          lastUpdated: expect.stringMatching(CUSTOM_TIME),
          serverHostName: s.hostName,
          serverId: s.id,
          serverCapability: name,
        }))
        .sort((a, b) => a.serverHostName.localeCompare(b.serverHostName));
      expect(responseOf(list)).toEqual(expected);
      expect(responseOf(await admin.at('5.0').get(`server_server_capabilities?serverId=${edge.id}`))).toEqual(
        [
          {
            lastUpdated: expect.stringMatching(RFC3339_TIME),
            serverHostName: edge.hostName,
            serverId: edge.id,
            serverCapability: name,
          },
        ],
      );
      expect(
        responseOf(await admin.get(`server_server_capabilities?serverHostName=${mid.hostName}`)),
      ).toEqual([expect.objectContaining({ serverId: mid.id })]);
      expectError(
        await admin.get('server_server_capabilities?serverId=one'),
        400,
        'serverId cannot parse to integer',
      );
    });

    it('refuses a server of another type, an unknown server or capability, and a pair that exists', async () => {
      const name = await capability();
      const origin = await server();
      await setType(origin.id, 'ORG');
      expectError(
        await admin.post('server_server_capabilities', { serverId: origin.id, serverCapability: name }),
        400,
        WRONG_TYPE(origin.id),
      );
      expectError(
        await admin.post('server_server_capabilities', { serverId: 2_000_000_000, serverCapability: name }),
        404,
        'server 2000000000 does not exist',
      );
      const edge = await server();
      expectError(
        await admin.post('server_server_capabilities', {
          serverId: edge.id,
          serverCapability: 'no_such_capability',
        }),
        404,
        'server_capability not found',
      );
      await give(edge.id, name);
      expectError(
        await admin.post('server_server_capabilities', { serverId: edge.id, serverCapability: name }),
        400,
        `server_server_capability server, server_capability '${edge.id}, ${name}' already exists.`,
      );
      expect(await pairs(origin.id)).toBe(0);
      expect(await pairs(edge.id)).toBe(1);
    });

    it('refuses a bad body, writing nothing', async () => {
      const edge = await server();
      for (const [body, text] of [
        [{}, "'serverCapability' cannot be blank, 'serverId' cannot be blank"],
        [
          { serverId: 0, serverCapability: '' },
          "'serverCapability' cannot be blank, 'serverId' cannot be blank",
        ],
        [{ serverId: 'one', serverCapability: 'x' }, "'serverId' must be an integer"],
        [{ serverId: 2 ** 31, serverCapability: 'x' }, "'serverId' must be no greater than 2147483647"],
        [{ serverId: edge.id, serverCapability: 3 }, "'serverCapability' must be a string"],
      ] as const) {
        expectError(await admin.post('server_server_capabilities', body), 400, text);
      }
      expectMalformedJson(await admin.raw('post', 'server_server_capabilities', '{"serverId": 1,'));
      expect(await pairs(edge.id)).toBe(0);
    });
  });

  describe('DELETE server_server_capabilities', () => {
    it('takes a capability from a server', async () => {
      const name = await capability();
      const edge = await server();
      await give(edge.id, name);
      const res = await admin.delete(
        `server_server_capabilities?serverId=${edge.id}&serverCapability=${name}`,
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        alerts: [{ text: 'server server_capability was deleted.', level: 'success' }],
      });
      expect(await pairs(edge.id)).toBe(0);
    });

    it('answers 412 when the pair changed after If-Unmodified-Since, deleting nothing', async () => {
      const name = await capability();
      const edge = await server();
      await give(edge.id, name);
      const res = await admin
        .delete(`server_server_capabilities?serverId=${edge.id}&serverCapability=${name}`)
        .set('If-Unmodified-Since', new Date(Date.now() - 86_400_000).toUTCString());
      expectError(res, 412, 'resource was modified since the time specified by the request headers');
      expect(await has(edge.id, name)).toBe(1);
    });

    it('answers the generic texts for missing or bad keys and an unknown pair', async () => {
      await expectErrors([
        [admin.delete('server_server_capabilities?serverCapability=x'), 400, 'missing key: serverId'],
        [admin.delete('server_server_capabilities?serverId=1'), 400, 'missing key: serverCapability'],
        [
          admin.delete('server_server_capabilities?serverId=one&serverCapability=x'),
          400,
          'failed to parse key: serverId',
        ],
        [
          admin.delete('server_server_capabilities?serverId=-1&serverCapability=x'),
          404,
          'no server server_capability with that key found',
        ],
        [
          admin.delete('server_server_capabilities?serverId=1&serverCapability=no_such_capability'),
          404,
          'no server server_capability with that key found',
        ],
      ]);
    });

    it('refuses while a delivery service the server is assigned to requires it, naming those within reach', async () => {
      const name = await capability();
      const edge = await server();
      await give(edge.id, name);
      const mine = await insertDeliveryService(app, cdnId);
      const tenant = await createTenant(admin);
      const theirs = await insertDeliveryService(app, cdnId, { tenantId: tenant.id });
      const dataSource = app.get(DataSource);
      for (const ds of [mine, theirs]) {
        await dataSource.query('INSERT INTO deliveryservice_server (deliveryservice, server) VALUES (?, ?)', [
          ds.id,
          edge.id,
        ]);
        await dataSource.query(
          'INSERT INTO deliveryservices_required_capability (deliveryservice_id, required_capability) VALUES (?, ?)',
          [ds.id, name],
        );
      }
      const path = `server_server_capabilities?serverId=${edge.id}&serverCapability=${name}`;
      const text = (which: string) =>
        `cannot remove the capability ${name} from the server ${edge.id} as the server is assigned to ${which} that require it`;
      expectError(
        await admin.delete(path),
        400,
        text(`the delivery services ${[mine.id, theirs.id].sort((a, b) => a - b).join(',')}`),
      );
      const sibling = await createTenant(admin);
      const operator = await createUser(app, admin, 'operations', sibling.id);
      expectError(await operator.client.delete(path), 400, text('delivery services'));
      const inTenant = await createUser(app, admin, 'operations', tenant.id);
      expectError(await inTenant.client.delete(path), 400, text(`the delivery services ${theirs.id}`));
      expect(await has(edge.id, name)).toBe(1);
    });
  });

  describe('multiple_servers_capabilities', () => {
    it('exists from 4.1 on', async () => {
      const res = await admin.at('4.0').post('multiple_servers_capabilities', {});
      expect(res.status).toBe(404);
    });

    it('gives one capability to several servers (sc) and several capabilities to one server (server)', async () => {
      const [a, b] = [await server(), await server()];
      const name = await capability();
      const body: MultipleServersCapabilitiesV41 = {
        serverCapabilities: [name],
        serverIds: [a.id, b.id],
        pageType: 'sc',
      };
      const res = expectOk(
        await admin.at('4.1').post('multiple_servers_capabilities', body),
        'Assign Server(s) to a capability',
      );
      expect(responseOf(res)).toEqual(body);
      expect([await has(a.id, name), await has(b.id, name)]).toEqual([1, 1]);

      const [x, y] = [await capability(), await capability()];
      const byServer = { serverCapabilities: [x, y], serverIds: [a.id], pageType: 'server' };
      const res5 = await admin.at('5.0').post('multiple_servers_capabilities', byServer);
      expectSuccessAlert(res5, 'Assign Server Capability(ies) to a server');
      expect(responseOf(res5)).toEqual(byServer);
      expect(await pairs(a.id)).toBe(3);
    });

    it('refuses many to many, unknown servers, other types, a bad page type and existing pairs, writing nothing', async () => {
      const [a, b] = [await server(), await server()];
      const [x, y] = [await capability(), await capability()];
      const post = (body: object) => admin.at('4.1').post('multiple_servers_capabilities', body);
      expectError(
        await post({ serverIds: [a.id, b.id], serverCapabilities: [x, y], pageType: 'sc' }),
        400,
        'not allowed to have many:many association between server and server capability. Only associations allowed are; 1:1, 1:many or many:1',
      );
      expectError(
        await post({ serverIds: [a.id, 2_000_000_001], serverCapabilities: [x], pageType: 'sc' }),
        404,
        'server 2000000001 does not exist',
      );
      await setType(b.id, 'ORG');
      expectError(
        await post({ serverIds: [a.id, b.id], serverCapabilities: [x], pageType: 'sc' }),
        400,
        WRONG_TYPE(b.id),
      );
      expectError(
        await post({ serverIds: [a.id], serverCapabilities: [x], pageType: 'cdn' }),
        400,
        "incorrect page type: 'cdn'. Should be 'sc' or 'server'",
      );
      expectError(
        await post({ serverIds: [a.id], serverCapabilities: [x, 'no_such_capability'], pageType: 'server' }),
        404,
        'server_capability not found',
      );
      await give(a.id, y);
      expectError(
        await post({ serverIds: [a.id], serverCapabilities: [x, y], pageType: 'server' }),
        400,
        `server_server_capability server, server_capability '${a.id}, ${y}' already exists.`,
      );
      expect(await pairs(a.id)).toBe(1);
      expect(await pairs(b.id)).toBe(0);
    });

    it('refuses a bad body', async () => {
      const post = (body: object) => admin.at('4.1').post('multiple_servers_capabilities', body);
      expectError(
        await post({}),
        400,
        "'pageType' cannot be blank, 'serverCapabilities' cannot be blank, 'serverIds' cannot be blank",
      );
      expectError(
        await post({ serverIds: [], serverCapabilities: [], pageType: '' }),
        400,
        "'pageType' cannot be blank, 'serverCapabilities' cannot be blank, 'serverIds' cannot be blank",
      );
      expectError(
        await post({ serverIds: ['1'], serverCapabilities: [1], pageType: 'sc' }),
        400,
        "'serverCapabilities' must be an array of strings, 'serverIds' must be an array of integers",
      );
      expectError(
        await post({ serverIds: [2 ** 31], serverCapabilities: ['x'], pageType: 'sc' }),
        400,
        "'serverIds[0]' must be no greater than 2147483647",
      );
      expectMalformedJson(await admin.at('4.1').raw('post', 'multiple_servers_capabilities', '['));
    });

    it('removes pairs by page type, and answers without alerts when none went', async () => {
      const [a, b] = [await server(), await server()];
      const [x, y] = [await capability(), await capability()];
      for (const [serverId, name] of [
        [a.id, x],
        [a.id, y],
        [b.id, x],
      ] as const) {
        await give(serverId, name);
      }
      const remove = (body: object) => admin.at('4.1').delete('multiple_servers_capabilities').send(body);

      const one = { serverIds: [a.id], serverCapabilities: [x], pageType: 'sc' };
      const res = await remove(one);
      expectSuccessAlert(res, 'Removed Server(s) associated with a capability');
      expect(responseOf(res)).toEqual(one);
      expect([await has(a.id, x), await has(b.id, x)]).toEqual([0, 1]);

      const again = await remove(one);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ response: one });

      const all = await remove({ serverCapabilities: [x], pageType: 'sc' });
      expect(responseOf(all)).toEqual({ serverCapabilities: [x], serverIds: null, pageType: 'sc' });
      expect(await has(b.id, x)).toBe(0);

      const everything = await admin
        .at('5.0')
        .delete('multiple_servers_capabilities')
        .send({ serverIds: [a.id], serverCapabilities: [], pageType: 'server' });
      expectSuccessAlert(everything, 'Removed Server Capability(ies) associated with a server');
      expect(await pairs(a.id)).toBe(0);
    });

    it('refuses an unknown server, a bad page type and a missing key field on DELETE (D61)', async () => {
      const a = await server();
      const name = await capability();
      await give(a.id, name);
      const remove = (body: object) => admin.at('4.1').delete('multiple_servers_capabilities').send(body);
      expectError(
        await remove({ serverIds: [2_000_000_002], serverCapabilities: [name], pageType: 'sc' }),
        404,
        'server 2000000002 does not exist',
      );
      expectError(
        await remove({ serverIds: [a.id], pageType: 'servers' }),
        400,
        "incorrect page type:'servers'. Should be 'sc' or 'server'",
      );
      expectError(
        await remove({ serverIds: [a.id], pageType: 'sc' }),
        400,
        "'serverCapabilities' cannot be blank",
      );
      expectError(
        await remove({ serverCapabilities: [name], pageType: 'server' }),
        400,
        "'serverIds' cannot be blank",
      );
      expectError(
        await remove({ serverIds: 'all', pageType: 'server' }),
        400,
        "'serverIds' must be an array of integers",
      );
      expect(await has(a.id, name)).toBe(1);
    });
  });
});
