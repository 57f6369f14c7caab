import request from 'supertest';
import type { App } from 'supertest/types';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
  type ParameterResponse,
  type ProfileResponse,
} from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

interface Assigned {
  parameters: { configFile: string; name: string; secure: number; value: string; id: number }[];
  profileId: number;
  profileName: string;
}

describe('profiles/name/{name}/parameters', () => {
  const { app, admin, readOnly, operations } = useApp({
    users: { readOnly: 'read-only', operations: 'operations' },
  });
  let cdnId: number;

  const path = (name: string) => `profiles/name/${encodeURIComponent(name)}/parameters`;
  const item = (overrides: Record<string, unknown> = {}) => ({
    name: uniqueName('param'),
    configFile: 'records.config',
    value: 'INT 1',
    secure: 0,
    ...overrides,
  });
  const paramsOf = async (name: string, client = admin) =>
    responseOf<ParameterResponse[]>(await client.get(path(name)));
  const parametersNamed = async (name: string) =>
    responseOf<ParameterResponse[]>(await admin.get(`parameters?name=${encodeURIComponent(name)}`));

  beforeAll(async () => {
    cdnId = (await createCdn(admin)).id;
  });

  describe('GET', () => {
    it('lists the parameters of GLOBAL', async () => {
      const res = expectOk(await readOnly.client.get(path('GLOBAL')));
      expect(responseOf(res)).toEqual([
        {
          configFile: 'regex_revalidate.config',
          id: expect.any(Number),
          lastUpdated: expect.stringMatching(CUSTOM_TIME),
          name: 'maxRevalDurationDays',
          secure: false,
          value: '90',
        },
        expect.objectContaining({
          name: 'tm.instance_name',
          configFile: 'global',
          value: 'Traffic Ops CDN',
          secure: false,
        }),
        expect.objectContaining({
          name: 'tm.toolname',
          configFile: 'global',
          value: 'Traffic Ops',
          secure: false,
        }),
      ]);
    });

    it('answers [] for an unknown profile or one without parameters', async () => {
      expect(await paramsOf('no-such-profile')).toEqual([]);
      const profile = await createProfile(admin, cdnId);
      expect(await paramsOf(profile.name)).toEqual([]);
    });

    it('masks secure values for users who may not read them', async () => {
      const profile = await createProfile(admin, cdnId);
      const secret = await createParameter(admin, { secure: true, value: 'hidden' });
      await assignParameter(admin, profile.id, secret.id);
      expect((await paramsOf(profile.name))[0].value).toBe('hidden');
      expect((await paramsOf(profile.name, operations.client))[0].value).toBe('********');
      expect((await paramsOf(profile.name, readOnly.client.at('3.0')))[0].value).toBe('********');
    });
  });

  describe('POST', () => {
    let profile: ProfileResponse;

    beforeEach(async () => {
      profile = await createProfile(admin, cdnId);
    });

    it('creates and assigns one parameter from an object', async () => {
      const sent = item({ secure: 1, value: '' });
      const res = expectOk(
        await operations.client.post(path(profile.name), sent),
        `Assign parameters successfully to profile ${profile.name}`,
      );
      const assigned = responseOf<Assigned>(res);
      expect(assigned).toEqual({
        parameters: [
          { configFile: sent.configFile, name: sent.name, secure: 1, value: '', id: expect.any(Number) },
        ],
        profileId: profile.id,
        profileName: profile.name,
      });
      expect(await paramsOf(profile.name)).toEqual([
        {
          configFile: sent.configFile,
          id: assigned.parameters[0].id,
          lastUpdated: expect.stringMatching(CUSTOM_TIME),
          name: sent.name,
          secure: true,
          value: '',
        },
      ]);
    });

    it('takes an array, reuses an existing parameter (keeping its secure) and is idempotent', async () => {
      const existing = await createParameter(admin, { secure: true, value: 'kept' });
      const fresh = item();
      const sent = [
        fresh,
        { name: existing.name, configFile: existing.configFile, value: 'kept', secure: 0 },
      ];
      const first = responseOf<Assigned>(await admin.post(path(profile.name), sent));
      expect(first.parameters).toEqual([
        {
          configFile: fresh.configFile,
          name: fresh.name,
          secure: 0,
          value: fresh.value,
          id: expect.any(Number),
        },
        { configFile: existing.configFile, name: existing.name, secure: 1, value: 'kept', id: existing.id },
      ]);
      const again = await admin.post(path(profile.name), sent);
      expectSuccessAlert(again, `Assign parameters successfully to profile ${profile.name}`);
      expect(responseOf<Assigned>(again)).toEqual(first);
      expect((await paramsOf(profile.name)).map((p) => p.id).sort()).toEqual(
        [first.parameters[0].id, existing.id].sort(),
      );
      expect(await parametersNamed(fresh.name)).toHaveLength(1);
      expect((await parametersNamed(existing.name))[0].secure).toBe(true);
      const links = responseOf<unknown[]>(await admin.get(`profileparameters?profileId=${profile.id}`));
      expect(links).toHaveLength(2);
    });

    it('assigns to a second profile a parameter another one already has, and repeats within one request', async () => {
      const other = await createProfile(admin, cdnId);
      const shared = item();
      await admin.post(path(other.name), shared);
      const res = responseOf<Assigned>(await admin.post(path(profile.name), [shared, shared]));
      expect(res.parameters).toHaveLength(2);
      expect(res.parameters[0].id).toBe(res.parameters[1].id);
      const [param] = await parametersNamed(shared.name);
      expect(param.profiles).toEqual([other.name, profile.name].sort());
      expect(responseOf<Assigned>(await admin.post(path(profile.name), [])).parameters).toEqual([]);
    });

    it('refuses a boolean secure, writing nothing', async () => {
      const good = item();
      const bad = item({ secure: true });
      await expectErrors([
        [
          admin.post(path(profile.name), bad),
          400,
          "parse error: decoding: object 0: 'secure' must be an integer 0 or 1, not a boolean",
        ],
        [
          admin.post(path(profile.name), [good, bad]),
          400,
          "parse error: decoding: object 1: 'secure' must be an integer 0 or 1, not a boolean",
        ],
      ]);
      expect(await parametersNamed(good.name)).toEqual([]);
      expect(await parametersNamed(bad.name)).toEqual([]);
      expect(await paramsOf(profile.name)).toEqual([]);
    });

    it.each([
      [{ secure: 2 }, "parse error: decoding: object 0: 'secure' must be an integer 0 or 1"],
      [{ secure: '1' }, "parse error: decoding: object 0: 'secure' must be an integer 0 or 1"],
      [
        { name: 5, value: false },
        "parse error: decoding: object 0: 'name' must be a string, object 0: 'value' must be a string",
      ],
      [{ name: undefined }, 'parse error: validating: object 0: required fields missing: name'],
      [
        { name: '', configFile: null, secure: undefined, value: undefined },
        'parse error: validating: object 0: required fields missing: configFile, name, secure, value',
      ],
    ])('refuses %j', async (overrides, text) => {
      expectError(await admin.post(path(profile.name), item(overrides)), 400, text);
      expect(await paramsOf(profile.name)).toEqual([]);
    });

    it('names every incomplete object of an array', async () => {
      expectError(
        await admin.post(path(profile.name), [item(), { name: 'x', configFile: 'y' }, item(), { value: '' }]),
        400,
        'parse error: validating: object 1: required fields missing: secure, value, ' +
          'object 3: required fields missing: configFile, name, secure',
      );
      expect(await paramsOf(profile.name)).toEqual([]);
    });

    it('refuses other bodies', async () => {
      const res = await request(app.getHttpServer() as App)
        .post(`/api/4.0/${path(profile.name)}`)
        .set('Cookie', admin.cookie!);
      expectError(res, 400, 'parse error: decoding: EOF');
      expectError(
        await admin.post(path(profile.name), [item(), 3]),
        400,
        'parse error: decoding: object 1: must be a JSON object',
      );
      const malformed = await admin.raw('post', path(profile.name), '[{');
      expectMalformedJson(malformed);
    });

    it('answers 404 for an unknown profile, writing nothing', async () => {
      const sent = item();
      expectError(await admin.post(path('no-such-profile'), sent), 404, 'no profile with that name exists');
      expect(await parametersNamed(sent.name)).toEqual([]);
    });

    it('names, on 4.0, the permissions the user lacks', async () => {
      const user = await createUser(app, admin, await createRole(admin, ['PROFILE:READ', 'PARAMETER:READ']));
      expectError(
        await user.client.post(path(profile.name), item()),
        403,
        'missing required Permissions: PROFILE:UPDATE',
      );
      expectSuccessAlert(
        await user.client.at('3.0').post(path(profile.name), item()),
        `Assign parameters successfully to profile ${profile.name}`,
      );
    });
  });
});
