import { DataSource } from 'typeorm';
import { ApiClient, responseOf, uniqueName } from 'test/e2e/support/api';
import { createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectApiHeaders, expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, timeFormatOn } from 'test/e2e/support/times';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
  type ProfileResponse,
} from 'test/e2e/support/fixtures/profiles';
import { INVALID_PAGING } from 'test/e2e/support/list-params';
import { useApp } from 'test/e2e/support/suite';

describe('profiles', () => {
  const { app, admin, readOnly, operations } = useApp({
    users: { readOnly: 'read-only', operations: 'operations' },
  });
  let cdn: { id: number; name: string };

  const body = (overrides: Record<string, unknown> = {}) => ({
    name: uniqueName('profile'),
    description: 'a profile',
    cdn: cdn.id,
    type: 'ATS_PROFILE',
    routingDisabled: false,
    ...overrides,
  });
  const byName = async (name: string, version = '4.0'): Promise<ProfileResponse[]> =>
    responseOf<ProfileResponse[]>(await admin.at(version).get(`profiles?name=${encodeURIComponent(name)}`));

  beforeAll(async () => {
    cdn = await createCdn(admin);
  });

  describe('GET /profiles', () => {
    it('lists profiles ordered by name, with the seeded GLOBAL', async () => {
      const res = expectOk(await readOnly.client.get('profiles'));
      const profiles = responseOf<ProfileResponse[]>(res);
      const global = profiles.find((p) => p.name === 'GLOBAL');
      expect(global).toEqual({
        id: expect.any(Number),
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
        name: 'GLOBAL',
        description: 'Global Traffic Ops profile, DO NOT DELETE',
        cdnName: 'ALL',
        cdn: expect.any(Number),
        routingDisabled: false,
        type: 'UNK_PROFILE',
      });
      const names = profiles.map((p) => p.name);
      expect(names).toEqual([...names].sort());
    });

    it('adds the parameters when asked for one id (GLOBAL and its three)', async () => {
      const [global] = await byName('GLOBAL');
      const [withParams] = responseOf<(ProfileResponse & { params: unknown[] })[]>(
        await admin.get(`profiles?id=${global.id}`),
      );
      expect(withParams).toEqual({ ...global, params: expect.any(Array) });
      expect(withParams.params).toEqual([
        {
          configFile: 'regex_revalidate.config',
          id: expect.any(Number),
          lastUpdated: null,
          name: 'maxRevalDurationDays',
          profiles: null,
          secure: false,
          value: '90',
        },
        expect.objectContaining({ name: 'tm.instance_name', configFile: 'global', value: 'Traffic Ops CDN' }),
        expect.objectContaining({ name: 'tm.toolname', configFile: 'global', value: 'Traffic Ops' }),
      ]);
      const plain = await createProfile(admin, cdn.id);
      expect(responseOf(await admin.get(`profiles?id=${plain.id}`))).toEqual([plain]);
    });

    it('masks secure values in params for users who may not read them', async () => {
      const profile = await createProfile(admin, cdn.id);
      const secret = await createParameter(admin, { secure: true, value: 'hush' });
      await assignParameter(admin, profile.id, secret.id);
      const paramsOf = async (client: ApiClient) =>
        responseOf<{ params: { value: string }[] }[]>(await client.get(`profiles?id=${profile.id}`))[0]
          .params;
      expect((await paramsOf(admin))[0].value).toBe('hush');
      expect((await paramsOf(operations.client))[0].value).toBe('********');
      expect((await paramsOf(operations.client.at('3.0')))[0].value).toBe('********');
    });

    it('filters by name, id, cdn and param', async () => {
      const other = await createCdn(admin);
      const a = await createProfile(admin, other.id);
      const b = await createProfile(admin, other.id, { type: 'TR_PROFILE' });
      expect(await byName(a.name)).toEqual([a]);
      expect(responseOf<ProfileResponse[]>(await admin.get(`profiles?cdn=${other.id}`))).toEqual(
        [a, b].sort((x, y) => (x.name < y.name ? -1 : 1)),
      );
      const parameter = await createParameter(admin);
      await assignParameter(admin, b.id, parameter.id);
      expect(responseOf(await admin.get(`profiles?param=${parameter.id}`))).toEqual([b]);
      expect(responseOf(await admin.get('profiles?name=no-such-profile'))).toEqual([]);
    });

    it.each([
      ['id=abc', 'id cannot parse to integer'],
      ['cdn=abc', 'cdn cannot parse to integer'],
      ['param=abc', 'param cannot parse to integer'],
      ...INVALID_PAGING,
    ])('rejects %s', async (query, text) => {
      expectError(await admin.get(`profiles?${query}`), 400, text);
    });

    it('orders and pages', async () => {
      await createProfile(admin, cdn.id);
      await createProfile(admin, cdn.id);
      const all = responseOf<ProfileResponse[]>(await admin.get('profiles?orderby=id'));
      const ids = all.map((p) => p.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      const desc = responseOf<ProfileResponse[]>(await admin.get('profiles?orderby=id&sortOrder=desc'));
      expect(desc).toEqual([...all].reverse());
      expect(responseOf(await admin.get('profiles?orderby=id&limit=1&offset=1'))).toEqual(all.slice(1, 2));
      expect(responseOf(await admin.get('profiles?orderby=id&limit=2&page=2'))).toEqual(all.slice(2, 4));
      const byType = responseOf<ProfileResponse[]>(await admin.get('profiles?orderby=type')).map(
        (p) => p.type,
      );
      expect(byType).toEqual([...byType].sort());
    });
  });

  describe('POST /profiles', () => {
    it('creates a profile in every version', async () => {
      for (const version of ['3.0', '4.0', '5.0']) {
        const sent = body({ routingDisabled: true, type: 'TR_PROFILE' });
        const res = expectOk(await admin.at(version).post('profiles', sent), 'profile was created.');
        const created = responseOf<ProfileResponse>(res);
        expect(created).toEqual({
          id: expect.any(Number),
          lastUpdated: expect.stringMatching(timeFormatOn(version)),
          name: sent.name,
          description: 'a profile',
          cdnName: cdn.name,
          cdn: cdn.id,
          routingDisabled: true,
          type: 'TR_PROFILE',
        });
        expect(await byName(sent.name, version)).toEqual([created]);
      }
    });

    it('takes an omitted routingDisabled as false', async () => {
      const sent = body();
      delete (sent as Partial<typeof sent>).routingDisabled;
      const res = await operations.client.post('profiles', sent);
      expect(responseOf<ProfileResponse>(res).routingDisabled).toBe(false);
    });

    it.each([
      [
        {},
        "'name' required and cannot be blank, 'description' cannot be blank, 'cdn' cannot be blank, 'type' cannot be blank",
      ],
      [{ name: 'has space' }, "'name' cannot contain spaces"],
      [{ name: '' }, "'name' required and cannot be blank"],
      [{ name: 5 }, "'name' must be a string"],
      [{ cdn: 0 }, "'cdn' cannot be blank"],
      [{ cdn: '1' }, "'cdn' must be an integer"],
      [{ description: '' }, "'description' cannot be blank"],
      [{ routingDisabled: 'yes' }, "'routingDisabled' must be a boolean"],
      [{ type: 'NOT_A_TYPE' }, 'invalid enum value NOT_A_TYPE for field profile_type.'],
    ])('refuses %j and writes nothing', async (overrides, text) => {
      const sent = Object.keys(overrides).length === 0 ? {} : body(overrides);
      expectError(await admin.post('profiles', sent), 400, text);
      if (typeof (sent as { name?: unknown }).name === 'string') {
        expect(await byName((sent as { name: string }).name)).toEqual([]);
      }
    });

    it('refuses an unknown CDN (404) and a duplicate name (400)', async () => {
      const unknown = body({ cdn: 999999 });
      expectError(await admin.post('profiles', unknown), 404, 'cdn not found');
      expect(await byName(unknown.name)).toEqual([]);
      const existing = await createProfile(admin, cdn.id);
      expectError(
        await admin.post('profiles', body({ name: existing.name })),
        400,
        `profile name '${existing.name}' already exists.`,
      );
    });

    it('refuses malformed JSON and non-object bodies', async () => {
      const res = await admin.raw('post', 'profiles', '{"name":');
      expectMalformedJson(res);
      expectError(await admin.post('profiles', [body()]), 400, 'the request body must be a JSON object');
    });

    it('names, on 4.0, the permissions the user lacks; 3.0 does not check them', async () => {
      const role = await createRole(admin, ['PROFILE:READ']);
      const user = await createUser(app, admin, role);
      expectError(
        await user.client.post('profiles', body()),
        403,
        'missing required Permissions: PROFILE:CREATE',
      );
      expectSuccessAlert(await user.client.at('3.0').post('profiles', body()), 'profile was created.');
    });
  });

  describe('PUT /profiles/{id}', () => {
    it('updates a profile', async () => {
      const profile = await createProfile(admin, cdn.id);
      const other = await createCdn(admin);
      const sent = body({ cdn: other.id, type: 'DS_PROFILE', description: 'changed', routingDisabled: true });
      const res = expectOk(
        await operations.client.put(`profiles/${profile.id}`, sent),
        'profile was updated.',
      );
      const updated = responseOf<ProfileResponse>(res);
      expect(updated).toEqual({
        ...profile,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
        name: sent.name,
        description: 'changed',
        cdn: other.id,
        cdnName: other.name,
        type: 'DS_PROFILE',
        routingDisabled: true,
      });
      expect(await byName(sent.name)).toEqual([updated]);
    });

    it('answers 404 for an unknown id and 400 for bad input, changing nothing', async () => {
      await expectErrors([
        [admin.put('profiles/999999', body()), 404, 'no profile found with this id'],
        [admin.put('profiles/abc', body()), 400, 'failed to parse key: id'],
      ]);
      const profile = await createProfile(admin, cdn.id);
      await expectErrors([
        [
          admin.put(`profiles/${profile.id}`, body({ type: 'X' })),
          400,
          'invalid enum value X for field profile_type.',
        ],
        [admin.put(`profiles/${profile.id}`, body({ cdn: 999999 })), 404, 'cdn not found'],
        [
          admin.put(`profiles/${profile.id}`, body({ name: 'GLOBAL' })),
          400,
          "profile name 'GLOBAL' already exists.",
        ],
      ]);
      expect(await byName(profile.name)).toEqual([profile]);
    });
  });

  describe('DELETE /profiles/{id}', () => {
    it('deletes a profile and its parameter assignments', async () => {
      const profile = await createProfile(admin, cdn.id);
      const parameter = await createParameter(admin);
      await assignParameter(admin, profile.id, parameter.id);
      const res = await operations.client.delete(`profiles/${profile.id}`);
      expectSuccessAlert(res, 'profile was deleted.');
      expect(res.body).toEqual({ alerts: [{ text: 'profile was deleted.', level: 'success' }] });
      expectApiHeaders(res);
      expect(await byName(profile.name)).toEqual([]);
      expect(responseOf(await admin.get(`profileparameters?profileId=${profile.id}`))).toEqual([]);
      const [stillThere] = responseOf<{ profiles: string[] }[]>(
        await admin.get(`parameters?id=${parameter.id}`),
      );
      expect(stillThere.profiles).toEqual([]);
    });

    it('answers 404 for an unknown id, 400 for a bad one', async () => {
      await expectErrors([
        [admin.delete('profiles/999999'), 404, 'no profile with that key found'],
        [admin.delete('profiles/x'), 400, 'failed to parse key: id'],
      ]);
    });

    it('refuses to delete a profile a server uses', async () => {
      const profile = await createProfile(admin, cdn.id);
      const db = app.get(DataSource);
      const one = async (sql: string, params: unknown[] = []) =>
        (await db.query<{ id: number }[]>(sql, params))[0].id;
      const suffix = uniqueName('x', 20);
      await db.query('INSERT INTO division (name) VALUES (?)', [`div-${suffix}`]);
      const division = await one('SELECT id FROM division WHERE name = ?', [`div-${suffix}`]);
      await db.query('INSERT INTO region (name, division) VALUES (?, ?)', [`reg-${suffix}`, division]);
      const region = await one('SELECT id FROM region WHERE name = ?', [`reg-${suffix}`]);
      await db.query('INSERT INTO phys_location (name, short_name, region) VALUES (?, ?, ?)', [
        `loc-${suffix}`,
        `l-${suffix}`,
        region,
      ]);
      const location = await one('SELECT id FROM phys_location WHERE name = ?', [`loc-${suffix}`]);
      const cgType = await one("SELECT id FROM type WHERE name = 'EDGE_LOC'");
      await db.query('INSERT INTO cachegroup (name, short_name, type) VALUES (?, ?, ?)', [
        `cg-${suffix}`,
        `c-${suffix}`,
        cgType,
      ]);
      const cachegroup = await one('SELECT id FROM cachegroup WHERE name = ?', [`cg-${suffix}`]);
      const edge = await one("SELECT id FROM type WHERE name = 'EDGE'");
      const status = await one("SELECT id FROM status WHERE name = 'ONLINE'");
      await db.query(
        'INSERT INTO server (host_name, domain_name, phys_location, cachegroup, type, status, cdn_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [`host-${suffix}`, 'example.net', location, cachegroup, edge, status, cdn.id],
      );
      const server = await one('SELECT id FROM server WHERE host_name = ?', [`host-${suffix}`]);
      await db.query('INSERT INTO server_profile (server, profile, priority) VALUES (?, ?, 0)', [
        server,
        profile.id,
      ]);

      expectError(
        await admin.delete(`profiles/${profile.id}`),
        400,
        'cannot delete profile because it is being used by a server',
      );
      expect(await byName(profile.name)).toEqual([profile]);

      await db.query('DELETE FROM server WHERE id = ?', [server]);
      await db.query('DELETE FROM cachegroup WHERE id = ?', [cachegroup]);
      await db.query('DELETE FROM phys_location WHERE id = ?', [location]);
      await db.query('DELETE FROM region WHERE id = ?', [region]);
      await db.query('DELETE FROM division WHERE id = ?', [division]);
      expectSuccessAlert(await admin.delete(`profiles/${profile.id}`), 'profile was deleted.');
    });
  });
});
