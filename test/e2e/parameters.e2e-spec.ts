import { ApiClient, responseOf, uniqueName } from 'test/e2e/support/api';
import { createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
  parameterBody,
  type ParameterResponse,
} from 'test/e2e/support/fixtures/profiles';
import { INVALID_PAGING } from 'test/e2e/support/list-params';
import { useApp } from 'test/e2e/support/suite';

describe('parameters', () => {
  const { app, admin, readOnly, operations } = useApp({
    users: { readOnly: 'read-only', operations: 'operations' },
  });
  let cdnId: number;

  const body = parameterBody;
  const byName = async (name: string, client = admin): Promise<ParameterResponse[]> =>
    responseOf<ParameterResponse[]>(await client.get(`parameters?name=${encodeURIComponent(name)}`));

  beforeAll(async () => {
    cdnId = (await createCdn(admin)).id;
  });

  describe('GET /parameters', () => {
    it('lists parameters by name with the names of their profiles', async () => {
      const res = expectOk(await readOnly.client.get('parameters'));
      const all = responseOf<ParameterResponse[]>(res);
      expect(all.find((p) => p.name === 'tm.toolname')).toEqual({
        configFile: 'global',
        id: expect.any(Number),
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
        name: 'tm.toolname',
        profiles: ['GLOBAL'],
        secure: false,
        value: 'Traffic Ops',
        comment: null,
      });
      const retries = all.filter((p) => p.name === 'mso.parent_retry');
      expect(retries.map((p) => p.value).sort()).toEqual([
        'both',
        'simple_retry',
        'unavailable_server_retry',
      ]);
      expect(retries.every((p) => Array.isArray(p.profiles) && p.profiles.length === 0)).toBe(true);
      const names = all.map((p) => p.name);
      expect(names).toEqual([...names].sort());
    });

    it('lists every profile using a parameter, sorted', async () => {
      const parameter = await createParameter(admin);
      const a = await createProfile(admin, cdnId);
      const b = await createProfile(admin, cdnId);
      await assignParameter(admin, b.id, parameter.id);
      await assignParameter(admin, a.id, parameter.id);
      const [read] = await byName(parameter.name);
      expect(read.profiles).toEqual([a.name, b.name].sort());
    });

    it('filters by id, name, configFile, value and secure', async () => {
      const name = uniqueName('param');
      const one = await createParameter(admin, { name, configFile: 'a.config', value: '1' });
      const two = await createParameter(admin, { name, configFile: 'b.config', value: '2', secure: true });
      expect((await byName(name)).map((p) => p.id)).toEqual([one.id, two.id]);
      const ids = async (query: string) =>
        responseOf<ParameterResponse[]>(await admin.get(`parameters?name=${name}&${query}`)).map((p) => p.id);
      expect(await ids(`id=${two.id}`)).toEqual([two.id]);
      expect(await ids('configFile=a.config')).toEqual([one.id]);
      expect(await ids('value=2')).toEqual([two.id]);
      expect(await ids('secure=true')).toEqual([two.id]);
      expect(await ids('secure=false')).toEqual([one.id]);
    });

    it.each([
      ['id=x', 'id cannot parse to integer'],
      ['secure=maybe', 'secure cannot parse to boolean'],
      ...INVALID_PAGING,
    ])('rejects %s', async (query, text) => {
      expectError(await admin.get(`parameters?${query}`), 400, text);
    });

    it('orders and pages', async () => {
      await createParameter(admin);
      const all = responseOf<ParameterResponse[]>(await admin.get('parameters?orderby=id'));
      const ids = all.map((p) => p.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(responseOf(await admin.get('parameters?orderby=id&sortOrder=desc'))).toEqual([...all].reverse());
      expect(responseOf(await admin.get('parameters?orderby=id&limit=2&offset=1'))).toEqual(all.slice(1, 3));
      expect(responseOf(await admin.get('parameters?orderby=id&limit=2&page=2'))).toEqual(all.slice(2, 4));
    });

    it('shows secure values to admins only (and to roles with PARAMETER-SECURE:READ on 4.0+)', async () => {
      const secret = await createParameter(admin, { secure: true, value: 'the-secret' });
      const valueFor = async (client: ApiClient) => (await byName(secret.name, client))[0].value;
      expect(await valueFor(admin)).toBe('the-secret');
      expect(await valueFor(admin.at('3.0'))).toBe('the-secret');
      expect(await valueFor(operations.client)).toBe('********');
      expect(await valueFor(operations.client.at('3.0'))).toBe('********');
      expect(await valueFor(readOnly.client)).toBe('********');
      const role = await createRole(admin, ['PARAMETER:READ', 'PARAMETER-SECURE:READ']);
      const reader = await createUser(app, admin, role);
      expect(await valueFor(reader.client)).toBe('the-secret');
      const plain = await createParameter(admin, { value: 'public' });
      expect((await byName(plain.name, readOnly.client))[0].value).toBe('public');
    });
  });

  describe('POST /parameters', () => {
    it('creates one parameter from an object', async () => {
      const sent = body({ secure: true });
      const res = expectOk(await operations.client.post('parameters', sent), 'param was created.');
      const created = responseOf<ParameterResponse>(res);
      expect(created).toEqual({
        configFile: sent.configFile,
        id: expect.any(Number),
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
        name: sent.name,
        profiles: null,
        secure: true,
        value: sent.value,
        comment: null,
      });
      expect(await byName(sent.name)).toEqual([{ ...created, profiles: [] }]);
    });

    it('creates several from an array in one go, and one from an array of one', async () => {
      const name = uniqueName('param');
      const res = await admin.post('parameters', [body({ name, value: '1' }), body({ name, value: '2' })]);
      expectSuccessAlert(res, 'params were created.');
      const created = responseOf<ParameterResponse[]>(res);
      expect(created.map((p) => p.value)).toEqual(['1', '2']);
      expect((await byName(name)).map((p) => p.id).sort()).toEqual(created.map((p) => p.id).sort());
      const single = await admin.post('parameters', [body()]);
      expectSuccessAlert(single, 'param was created.');
      expect(responseOf<ParameterResponse>(single).id).toEqual(expect.any(Number));
      const empty = await admin.post('parameters', []);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({
        alerts: [{ text: 'No objects were provided in request.', level: 'success' }],
      });
    });

    it('stores an omitted or null value as ""', async () => {
      const sent = body();
      delete (sent as Partial<typeof sent>).value;
      expect(responseOf<ParameterResponse>(await admin.post('parameters', sent)).value).toBe('');
      expect(responseOf<ParameterResponse>(await admin.post('parameters', body({ value: null }))).value).toBe(
        '',
      );
    });

    it('refuses a duplicate, alone or inside an array, writing nothing', async () => {
      const existing = await createParameter(admin, { value: 'dup' });
      const text = `parameter name, config_file, value '${existing.name}, ${existing.configFile}, dup' already exists.`;
      expectError(
        await admin.post(
          'parameters',
          body({ name: existing.name, configFile: existing.configFile, value: 'dup' }),
        ),
        400,
        text,
      );
      const fresh = body({ name: existing.name, value: 'fresh' });
      expectError(
        await admin.post('parameters', [
          fresh,
          { name: existing.name, configFile: existing.configFile, value: 'dup', secure: true },
        ]),
        400,
        text,
      );
      expect((await byName(existing.name)).map((p) => p.id)).toEqual([existing.id]);
      const twice = body();
      expectError(
        await admin.post('parameters', [twice, twice]),
        400,
        `parameter name, config_file, value '${twice.name}, ${twice.configFile}, ${twice.value}' already exists.`,
      );
      expect(await byName(twice.name)).toEqual([]);
    });

    it.each([
      [{ name: undefined, configFile: undefined }, "'name' cannot be blank, 'configFile' cannot be blank"],
      [{ name: '' }, "'name' cannot be blank"],
      [{ name: 1 }, "'name' must be a string"],
      [{ value: 7 }, "'value' must be a string"],
      [{ secure: 1 }, "'secure' must be a boolean"],
      [{ secure: undefined }, 'secure is a required field'],
    ])('refuses %j and writes nothing', async (overrides, text) => {
      const sent = body(overrides);
      expectError(await admin.post('parameters', sent), 400, text);
      if (typeof sent.name === 'string' && sent.name !== '') {
        expect(await byName(sent.name)).toEqual([]);
      }
    });

    it('refuses an array with one bad object, writing none of it', async () => {
      const good = body();
      await expectErrors([
        [admin.post('parameters', [good, body({ configFile: '' })]), 400, "'configFile' cannot be blank"],
        [
          admin.post('parameters', [good, 5]),
          400,
          'the request body must be a JSON object or an array of objects',
        ],
      ]);
      expect(await byName(good.name)).toEqual([]);
    });

    it('refuses malformed JSON', async () => {
      const res = await admin.raw('post', 'parameters', '[{"name":');
      expectMalformedJson(res);
    });

    it('names, on 4.0, the permissions the user lacks; 3.0 does not check them', async () => {
      const user = await createUser(app, admin, await createRole(admin, ['PARAMETER:READ']));
      expectError(
        await user.client.post('parameters', body()),
        403,
        'missing required Permissions: PARAMETER:CREATE',
      );
      expectSuccessAlert(await user.client.at('3.0').post('parameters', body()), 'param was created.');
    });
  });

  describe('PUT /parameters/{id}', () => {
    it('updates a parameter', async () => {
      const parameter = await createParameter(admin);
      const sent = body({ secure: true, value: 'new' });
      const res = expectOk(
        await operations.client.put(`parameters/${parameter.id}`, sent),
        'param was updated.',
      );
      expect(responseOf(res)).toEqual({
        configFile: sent.configFile,
        id: parameter.id,
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
        name: sent.name,
        profiles: null,
        secure: true,
        value: 'new',
        comment: null,
      });
      expect(await byName(parameter.name)).toEqual([]);
      expect((await byName(sent.name))[0].value).toBe('new');
    });

    it('answers 404 and 400 without changing anything', async () => {
      await expectErrors([
        [admin.put('parameters/999999', body()), 404, 'no param found with this id'],
        [admin.put('parameters/x', body()), 400, 'failed to parse key: id'],
      ]);
      const parameter = await createParameter(admin);
      const other = await createParameter(admin, { value: 'taken' });
      expectError(
        await admin.put(`parameters/${parameter.id}`, {
          name: other.name,
          configFile: other.configFile,
          value: 'taken',
          secure: false,
        }),
        400,
        `parameter name, config_file, value '${other.name}, ${other.configFile}, taken' already exists.`,
      );
      expectError(
        await admin.put(`parameters/${parameter.id}`, body({ name: '' })),
        400,
        "'name' cannot be blank",
      );
      expect(await byName(parameter.name)).toEqual([{ ...parameter, profiles: [] }]);
    });
  });

  describe('DELETE /parameters/{id}', () => {
    it('deletes a parameter and its assignments', async () => {
      const parameter = await createParameter(admin);
      const profile = await createProfile(admin, cdnId);
      await assignParameter(admin, profile.id, parameter.id);
      expectOk(await operations.client.delete(`parameters/${parameter.id}`), 'param was deleted.');
      expect(await byName(parameter.name)).toEqual([]);
      expect(responseOf(await admin.get(`profileparameters?profileId=${profile.id}`))).toEqual([]);
    });

    it('answers 404 and 400', async () => {
      await expectErrors([
        [admin.delete('parameters/999999'), 404, 'no param with that key found'],
        [admin.delete('parameters/x'), 400, 'failed to parse key: id'],
      ]);
    });
  });
});
