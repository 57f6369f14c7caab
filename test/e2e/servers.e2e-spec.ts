import { responseOf, uniqueName } from 'test/e2e/support/api';
import { type CreatedUser, createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, RFC3339_FRACTIONAL_TIME } from 'test/e2e/support/times';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createPhysLocation } from 'test/e2e/support/fixtures/topology';
import { useApp } from 'test/e2e/support/suite';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read field by field
type Json = Record<string, any>;

describe('servers', () => {
  const { app, admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let noServerPermissions: CreatedUser;
  let cdnId: number, otherCdnId: number;
  let cachegroup: Json, physLocation: Json, profile: Json, secondProfile: Json, otherCdnProfile: Json;
  let edgeTypeId: number;
  let online: Json, offline: Json;

  const idOf = async (path: string): Promise<Json> => responseOf<Json[]>(await admin.get(path))[0];

  /** Each body's service addresses are its own: servers of the same profiles may not share one. */
  let bodies = 0;
  const body = (overrides: Json = {}): Json => {
    const n = ++bodies;
    return {
      hostName: uniqueName('edge'),
      domainName: 'example.net',
      cachegroupId: cachegroup.id,
      cdnId,
      physLocationId: physLocation.id,
      profileNames: [profile.name],
      statusId: online.id,
      typeId: edgeTypeId,
      tcpPort: 80,
      httpsPort: 443,
      iloPassword: 'ilo-secret',
      xmppPasswd: 'xmpp-secret',
      rack: 'R1',
      interfaces: [
        {
          name: 'eth0',
          monitor: true,
          mtu: 1500,
          maxBandwidth: null,
          routerHostName: 'router1',
          routerPortName: 'port1',
          ipAddresses: [
            { address: `198.51.100.${n}/24`, gateway: '198.51.100.254', serviceAddress: true },
            { address: `2001:db8::${n.toString(16)}`, gateway: null, serviceAddress: true },
          ],
        },
      ],
      ...overrides,
    };
  };
  const create = async (overrides: Json = {}): Promise<Json> => {
    const res = await admin.post('servers', body(overrides));
    expect(res.status).toBe(200);
    return responseOf<Json>(res);
  };
  const byHost = async (hostName: string, version = '4.0'): Promise<Json[]> =>
    responseOf<Json[]>(await admin.at(version).get(`servers?hostName=${encodeURIComponent(hostName)}`));

  beforeAll(async () => {
    noServerPermissions = await createUser(app, admin, await createRole(admin, ['CDN:READ']));
    [cdnId, otherCdnId] = [(await createCdn(admin)).id, (await createCdn(admin)).id];
    cachegroup = await createCachegroup(admin);
    physLocation = await createPhysLocation(admin);
    profile = await createProfile(admin, cdnId);
    secondProfile = await createProfile(admin, cdnId);
    otherCdnProfile = await createProfile(admin, otherCdnId);
    edgeTypeId = (await idOf('types?name=EDGE')).id as number;
    online = await idOf('statuses?name=ONLINE');
    offline = await idOf('statuses?name=OFFLINE');
  });

  describe('API 5.0 (lib/go-tc ServerV50)', () => {
    const v5 = (overrides: Json = {}): Json => {
      const { cachegroupId, cdnId: cdn, physLocationId, profileNames, statusId, typeId, ...rest } = body();
      return {
        ...rest,
        cacheGroupID: cachegroupId,
        cdnID: cdn,
        physicalLocationID: physLocationId,
        profiles: profileNames,
        statusID: statusId,
        typeID: typeId,
        ...overrides,
      };
    };

    it('creates a server from the 5.0 names and answers the 5.0 shape', async () => {
      const sent = v5({ httpsPort: null });
      const res = await admin.at('5.0').post('servers', sent);
      expectSuccessAlert(res, 'Server created');
      const server = responseOf<Json>(res);
      expect(server).toMatchObject({
        cacheGroup: cachegroup.name,
        cacheGroupID: cachegroup.id,
        cdnID: cdnId,
        physicalLocation: physLocation.name,
        physicalLocationID: physLocation.id,
        profiles: [profile.name],
        status: 'ONLINE',
        statusID: online.id,
        type: 'EDGE',
        typeID: edgeTypeId,
        hostName: sent.hostName,
        lastUpdated: expect.stringMatching(RFC3339_FRACTIONAL_TIME),
      });
      expect(server).not.toHaveProperty('httpsPort');
      expect(server).not.toHaveProperty('updPending');
      expect(server).not.toHaveProperty('cachegroupId');
      const [listed] = await byHost(sent.hostName as string, '5.0');
      expect(listed).toEqual(server);
      const [asV4] = await byHost(sent.hostName as string, '4.0');
      expect(asV4).toMatchObject({
        cachegroupId: cachegroup.id,
        profileNames: [profile.name],
        httpsPort: null,
      });
    });

    it('filters by cacheGroup name and physicalLocationID', async () => {
      const created = await create();
      const hosts = async (query: string) =>
        responseOf<Json[]>(await admin.at('5.0').get(`servers?${query}`)).map((s) => s.hostName);
      expect(await hosts(`cacheGroup=${encodeURIComponent(cachegroup.name as string)}`)).toContain(
        created.hostName,
      );
      expect(await hosts(`physicalLocationID=${String(physLocation.id)}`)).toContain(created.hostName);
      expect(await hosts('cacheGroup=no-such-group')).toEqual([]);
    });

    it('validates with the original’s 4.x rules and texts, ignoring the 4.x names', async () => {
      const { cacheGroupID: _c, ...withoutGroup } = v5({ cachegroupId: cachegroup.id });
      await expectErrors([
        [admin.at('5.0').post('servers', withoutGroup), 400, "'cachegroupId' is required"],
        [admin.at('5.0').post('servers', v5({ statusID: 'ONLINE' })), 400, "'statusId' must be an integer"],
      ]);
      expect(await byHost(withoutGroup.hostName as string)).toEqual([]);
    });
  });

  describe('POST /servers', () => {
    it('creates a server with its profiles, interfaces and addresses', async () => {
      const sent = body({ profileNames: [secondProfile.name, profile.name] });
      const res = expectOk(await admin.post('servers', sent), 'Server created');
      const server = responseOf<Json>(res);
      expect(server).toMatchObject({
        cachegroup: cachegroup.name,
        cachegroupId: cachegroup.id,
        cdnId,
        domainName: 'example.net',
        hostName: sent.hostName,
        httpsPort: 443,
        tcpPort: 80,
        physLocation: physLocation.name,
        physLocationId: physLocation.id,
        profileNames: [secondProfile.name, profile.name],
        rack: 'R1',
        status: 'ONLINE',
        statusId: online.id,
        type: 'EDGE',
        typeId: edgeTypeId,
        updPending: false,
        revalPending: false,
        iloPassword: 'ilo-secret',
        xmppPasswd: 'xmpp-secret',
        id: expect.any(Number),
        xmppId: expect.any(String),
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
        statusLastUpdated: expect.stringMatching(RFC3339_FRACTIONAL_TIME), // RFC 3339 on 4.x (D5b)
      });
      expect(server.interfaces).toEqual([
        {
          name: 'eth0',
          monitor: true,
          mtu: 1500,
          maxBandwidth: null,
          routerHostName: 'router1',
          routerPortName: 'port1',
          ipAddresses: (sent.interfaces as { ipAddresses: Json[] }[])[0].ipAddresses,
        },
      ]);
      expect(await byHost(sent.hostName)).toEqual([server]);
    });

    it('takes one profile by id on 3.0 and answers in the 3.x shape', async () => {
      const sent = body({ profileId: profile.id, routerHostName: 'r3', routerPortName: 'p3' });
      delete sent.profileNames;
      for (const iface of sent.interfaces as Json[]) {
        delete iface.routerHostName;
        delete iface.routerPortName;
      }
      const res = await admin.at('3.0').post('servers', sent);
      expectSuccessAlert(res, 'Server created');
      const server = responseOf<Json>(res);
      expect(server).toMatchObject({
        profile: profile.name,
        profileId: profile.id,
        profileDesc: profile.description,
        routerHostName: 'r3',
        routerPortName: 'p3',
      });
      expect(server).not.toHaveProperty('profileNames');
      const [v4] = await byHost(sent.hostName);
      expect(v4.profileNames).toEqual([profile.name]);
      expect(v4.interfaces[0]).toMatchObject({ routerHostName: 'r3', routerPortName: 'p3' });
    });

    it.each([
      ['a missing host name', { hostName: undefined }, "'hostName' cannot be blank"],
      ['a host name with a space', { hostName: 'edge one' }, "'hostName' cannot contain spaces"],
      ['a missing cache group', { cachegroupId: undefined }, "'cachegroupId' is required"],
      ['a string cdnId', { cdnId: '1' }, "'cdnId' must be an integer"],
      ['a port out of range', { tcpPort: 70000 }, "'tcpPort' must be a valid port number"],
      ['missing profile names', { profileNames: undefined }, "'profileNames' is required"],
      ['no interfaces', { interfaces: [] }, 'a server must have at least one interface'],
      [
        'no service address',
        {
          interfaces: [
            { name: 'eth0', monitor: false, ipAddresses: [{ address: '192.0.2.1', serviceAddress: false }] },
          ],
        },
        'a server must have at least one service address',
      ],
      [
        'an address that is not an IP',
        {
          interfaces: [
            { name: 'eth0', monitor: false, ipAddresses: [{ address: 'nope', serviceAddress: true }] },
          ],
        },
        "interface 'eth0' address 'nope': address: invalid CIDR address: nope, a server must have at least one service address",
      ],
      [
        'a small MTU',
        {
          interfaces: [
            { name: 'eth0', mtu: 1000, ipAddresses: [{ address: '192.0.2.1', serviceAddress: true }] },
          ],
        },
        "'interface 'eth0' mtu' must be at least 1280",
      ],
      ['an unknown type', { typeId: 999999 }, 'type not found'],
      ['no profiles', { profileNames: [] }, 'no profiles exists'],
      ['an unknown profile', { profileNames: ['no-such-profile'] }, "no such profileName: 'no-such-profile'"],
    ])('rejects %s and writes nothing', async (_case, overrides, text) => {
      const sent = body(overrides);
      expectError(await admin.post('servers', sent), 400, text);
      expect(await byHost(String(body().hostName))).toEqual([]);
      if (typeof sent.hostName === 'string') {
        expect(await byHost(sent.hostName)).toEqual([]);
      }
    });

    it('rejects a type that is not a server type and a profile of another CDN', async () => {
      const cachegroupType = await idOf('types?name=EDGE_LOC');
      const sent = body({ typeId: cachegroupType.id, profileNames: [otherCdnProfile.name] });
      expectError(
        await admin.post('servers', sent),
        400,
        `type is not a valid server type, CDN id '${otherCdnId}' for profile '${otherCdnProfile.name}' does not match Server CDN '${cdnId}'`,
      );
      expect(await byHost(sent.hostName)).toEqual([]);
    });

    it.each([
      ['cachegroupId', 'cachegroup not found'],
      ['physLocationId', 'phys_location not found'],
      ['statusId', 'status not found'],
    ])('answers 404 for an unknown %s, writing nothing', async (field, text) => {
      const sent = body({ [field]: 999999 });
      expectError(await admin.post('servers', sent), 404, text);
      expect(await byHost(sent.hostName)).toEqual([]);
    });

    it('refuses a service address that a server of the same profiles has, on create and update (400)', async () => {
      const first = await create();
      const { address } = (first.interfaces as { ipAddresses: { address: string }[] }[])[0].ipAddresses[0];
      const sharing = (overrides: Json = {}): Json =>
        body({
          interfaces: [
            { name: 'eth0', monitor: true, mtu: 1500, ipAddresses: [{ address, serviceAddress: true }] },
          ],
          ...overrides,
        });
      const text = `there exists a server with id ${String(first.id)} on the same profile that has the same service address ${address}`;
      const refused = sharing();
      expectError(await admin.post('servers', refused), 400, text);
      expect(await byHost(refused.hostName as string)).toEqual([]);
      // Other profiles (or the same ones in another order) may share the address.
      const other = await create(sharing({ profileNames: [secondProfile.name] }));
      const reordered = await create(sharing({ profileNames: [secondProfile.name, profile.name] }));
      expect(reordered.id).toEqual(expect.any(Number));
      expectError(
        await admin.put(
          `servers/${String(other.id)}`,
          sharing({ hostName: other.hostName, xmppId: other.xmppId }),
        ),
        400,
        text,
      );
      expect((await byHost(other.hostName as string))[0].profileNames).toEqual([secondProfile.name]);
    });

    it('rejects two interfaces of the same name, writing nothing', async () => {
      const eth0 = body().interfaces[0];
      const sent = body({
        interfaces: [eth0, { ...eth0, ipAddresses: [{ address: '192.0.2.99', serviceAddress: false }] }],
      });
      expectError(
        await admin.post('servers', sent),
        400,
        "interfaces: the name 'eth0' is used by more than one interface",
      );
      expect(await byHost(sent.hostName)).toEqual([]);
    });

    it('answers malformed JSON and non-object bodies with 400', async () => {
      const res = await admin.raw('post', 'servers', '{"hostName":');
      expectMalformedJson(res);
      expectError(await admin.raw('post', 'servers', '[]'), 400, 'the request body must be a JSON object');
    });
  });

  describe('GET /servers', () => {
    let first: Json, second: Json;

    beforeAll(async () => {
      first = await create();
      second = await create({ profileNames: [secondProfile.name], statusId: offline.id });
    });

    it('lists servers with a summary count', async () => {
      const res = expectOk(await readOnly.client.get('servers'));
      const all = responseOf<Json[]>(res);
      expect((res.body as Json).summary).toEqual({ count: all.length });
      expect(all.map((s) => s.id)).toEqual(expect.arrayContaining([first.id, second.id]));
      const hosts = all.map((s) => s.hostName as string);
      expect(hosts).toEqual([...hosts].sort());
    });

    it('hides passwords from users below the operations level', async () => {
      const [shown] = responseOf<Json[]>(await readOnly.client.get(`servers?id=${first.id}`));
      expect(shown).toMatchObject({ iloPassword: '********', xmppPasswd: '********' });
      const [full] = responseOf<Json[]>(await admin.get(`servers?id=${first.id}`));
      expect(full).toMatchObject({ iloPassword: 'ilo-secret', xmppPasswd: 'xmpp-secret' });
    });

    it.each([
      ['hostName', () => first.hostName],
      ['cachegroup', () => cachegroup.id],
      ['cachegroupName', () => cachegroup.name],
      ['cdn', () => cdnId],
      ['physLocation', () => physLocation.id],
      ['type', () => 'EDGE'],
      ['status', () => 'OFFLINE'],
      ['profileName', () => secondProfile.name],
      ['id', () => second.id],
    ])('filters by %s', async (filter, value) => {
      const res = await admin.get(`servers?${filter}=${encodeURIComponent(String(value()))}`);
      const servers = responseOf<Json[]>(res);
      expect(servers.length).toBeGreaterThan(0);
      expect((res.body as Json).summary).toEqual({ count: servers.length });
      const expected = filter === 'hostName' ? first : second;
      if (['hostName', 'status', 'profileName', 'id'].includes(filter)) {
        expect(servers.map((s) => s.id)).toContain(expected.id);
      }
      for (const server of servers) {
        if (filter === 'status') {
          expect(server.status).toBe('OFFLINE');
        }
        if (filter === 'profileName') {
          expect(server.profileNames).toContain(secondProfile.name);
        }
        if (filter === 'cdn') {
          expect(server.cdnId).toBe(cdnId);
        }
      }
    });

    it('rejects a filter that does not parse', async () => {
      expectError(await admin.get('servers?cachegroup=abc'), 400, 'cachegroup cannot parse to integer');
    });

    it('pages in SQL and counts before paging', async () => {
      const all = responseOf<Json[]>(await admin.get(`servers?cdn=${cdnId}&orderby=id&sortOrder=desc`));
      expect(all.map((s) => s.id)).toEqual(all.map((s) => s.id as number).sort((a, b) => b - a));
      const page = await admin.get(`servers?cdn=${cdnId}&orderby=id&sortOrder=desc&limit=1&page=2`);
      expect(responseOf<Json[]>(page)).toEqual(all.slice(1, 2));
      expect((page.body as Json).summary).toEqual({ count: all.length });
      expectError(
        await admin.get('servers?limit=1&offset=0'),
        400,
        'offset parameter must be a positive integer',
      );
    });

    it('needs SERVER:READ on 4.0 but not on 3.x', async () => {
      expectError(
        await noServerPermissions.client.get('servers'),
        403,
        'missing required Permissions: SERVER:READ',
      );
      expect((await noServerPermissions.client.at('3.0').get('servers')).status).toBe(200);
    });
  });

  describe('PUT /servers/{id}', () => {
    it('replaces the server, its profiles and its interfaces', async () => {
      const server = await create();
      const changes = body({
        hostName: server.hostName,
        statusId: offline.id,
        profileNames: [secondProfile.name],
        interfaces: [
          {
            name: 'bond0',
            monitor: false,
            mtu: null,
            ipAddresses: [{ address: '198.51.100.7', serviceAddress: true }],
          },
        ],
      });
      const res = expectOk(await admin.put(`servers/${server.id}`, changes), 'Server updated');
      const updated = responseOf<Json>(res);
      expect(updated).toMatchObject({
        id: server.id,
        status: 'OFFLINE',
        profileNames: [secondProfile.name],
        xmppId: server.xmppId,
      });
      expect(updated.interfaces).toEqual([
        {
          name: 'bond0',
          monitor: false,
          mtu: null,
          maxBandwidth: null,
          routerHostName: '',
          routerPortName: '',
          ipAddresses: [{ address: '198.51.100.7', gateway: null, serviceAddress: true }],
        },
      ]);
      expect(await byHost(server.hostName)).toEqual([updated]);
    });

    it('answers 404 for an unknown server and 400 for a bad id', async () => {
      await expectErrors([
        [admin.put('servers/999999', body()), 404, "the server doesn't exist, cannot update"],
        [admin.put('servers/x', body()), 400, "getting integer parameters: parameter 'id' not an integer"],
      ]);
    });

    it('refuses to change the XMPP id and invalid bodies, changing nothing', async () => {
      const server = await create();
      await expectErrors([
        [
          admin.put(`servers/${server.id}`, body({ hostName: server.hostName, xmppId: 'another' })),
          400,
          'server cannot be updated due to requested XMPPID change. XMPIDD is immutable',
        ],
        [
          admin.put(`servers/${server.id}`, body({ hostName: server.hostName, interfaces: [] })),
          400,
          'a server must have at least one interface',
        ],
      ]);
      expect(await byHost(server.hostName)).toEqual([server]);
    });
  });

  describe('DELETE /servers/{id}', () => {
    it('deletes the server and answers what it deleted', async () => {
      const server = await create();
      const res = await admin.delete(`servers/${server.id}`);
      expectSuccessAlert(res, 'Server deleted');
      expect(responseOf<Json>(res)).toEqual(server);
      expect(await byHost(server.hostName)).toEqual([]);
    });

    it('answers 404 for an unknown server', async () => {
      expectError(await admin.delete('servers/999999'), 404, 'no server exists by id #999999');
    });
  });

  describe('rows a server references cannot be deleted', () => {
    let server: Json, serverType: Json;

    beforeAll(async () => {
      const typeRes = await admin.post('types', {
        name: uniqueName('SRV_TYPE'),
        description: 'test',
        useInTable: 'server',
      });
      serverType = responseOf<Json>(typeRes);
      server = await create({ typeId: serverType.id });
    });

    it('cdns (used by the server and by its profile: the database names either)', async () => {
      const res = await admin.delete(`cdns/${cdnId}`);
      expect(res.status).toBe(400);
      expect((res.body as Json).alerts).toEqual([
        {
          text: expect.stringMatching(/^cannot delete cdn because it is being used by a (server|profile)$/),
          level: 'error',
        },
      ]);
      expect(await byHost(server.hostName)).toHaveLength(1);
    });

    it.each([
      ['cachegroups', () => cachegroup.id, 'cachegroup is in use by one or more servers'],
      [
        'phys_locations',
        () => physLocation.id,
        'cannot delete phys_location because it is being used by a server',
      ],
      ['types', () => serverType.id, 'cannot delete type because it is being used by a server'],
      ['profiles', () => profile.id, 'cannot delete profile because it is being used by a server'],
    ])('%s', async (resource, id, text) => {
      expectError(await admin.delete(`${resource}/${id()}`), 400, text);
      expect(await byHost(server.hostName)).toHaveLength(1);
    });
  });
});
