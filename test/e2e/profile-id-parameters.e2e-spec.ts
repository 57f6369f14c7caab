import type { ParameterWire } from 'src/modules/parameters/dto/parameter.response';
import { responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, RFC3339_TIME } from 'test/e2e/support/times';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
} from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

/** The profile's parameters as `profiles/{id}/parameters` lists them: no `profiles`. */
type Listed = Omit<Wire<ParameterWire>, 'profiles'>;

describe('profiles/{id}/parameters and parameterprofile', () => {
  const { admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });
  let cdnId: number;

  const paramsOf = async (id: number): Promise<Listed[]> =>
    responseOf<Listed[]>(await admin.get(`profiles/${id}/parameters`));
  const profilesOf = async (parameterId: number): Promise<number[]> =>
    responseOf<{ id: number }[]>(await admin.get(`profiles?param=${parameterId}`))
      .map((p) => p.id)
      .sort((a, b) => a - b);

  beforeAll(async () => {
    cdnId = (await createCdn(admin)).id;
  });

  describe('GET profiles/{id}/parameters', () => {
    it.each(['3.0', '4.0', '5.0'])(
      'lists the profile parameters on %s, secure values masked',
      async (version) => {
        const profile = await createProfile(admin, cdnId);
        const plain = await createParameter(admin, { value: 'plain' });
        const secret = await createParameter(admin, { value: 'secret', secure: true });
        await assignParameter(admin, profile.id, plain.id);
        await assignParameter(admin, profile.id, secret.id);
        const res = expectOk(await readOnly.client.at(version).get(`profiles/${profile.id}/parameters`));
        const time = version === '5.0' ? RFC3339_TIME : CUSTOM_TIME;
        expect(responseOf<Listed[]>(res).sort((a, b) => a.id - b.id)).toEqual([
          {
            configFile: plain.configFile,
            id: plain.id,
            lastUpdated: expect.stringMatching(time),
            name: plain.name,
            secure: false,
            value: 'plain',
          },
          {
            configFile: secret.configFile,
            id: secret.id,
            lastUpdated: expect.stringMatching(time),
            name: secret.name,
            secure: true,
            value: '********',
          },
        ]);
      },
    );

    it('answers [] for an unknown profile and 400 for a bad id', async () => {
      expect(await paramsOf(99999999)).toEqual([]);
      expectError(
        await admin.get('profiles/x/parameters'),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      );
    });
  });

  describe('POST profiles/{id}/parameters', () => {
    it('creates or reuses parameters and assigns them', async () => {
      const profile = await createProfile(admin, cdnId);
      const existing = await createParameter(admin, { value: 'v1', configFile: 'a.config' });
      const name = uniqueName('param');
      const res = await admin.post(`profiles/${profile.id}/parameters`, [
        { name: existing.name, configFile: 'a.config', value: 'v1', secure: 0 },
        { name, configFile: 'b.config', value: 'v2', secure: 1 },
      ]);
      expectOk(res);
      expectSuccessAlert(res, `Assign parameters successfully to profile ${profile.name}`);
      const body = responseOf<{ parameters: { id: number }[]; profileId: number; profileName: string }>(res);
      expect(body).toEqual({
        parameters: [
          { configFile: 'a.config', name: existing.name, secure: 0, value: 'v1', id: existing.id },
          { configFile: 'b.config', name, secure: 1, value: 'v2', id: expect.any(Number) },
        ],
        profileId: profile.id,
        profileName: profile.name,
      });
      expect((await paramsOf(profile.id)).map((p) => p.id).sort((a, b) => a - b)).toEqual(
        body.parameters.map((p) => p.id).sort((a, b) => a - b),
      );
    });

    it('refuses an unknown profile, bad bodies and bad ids, writing nothing', async () => {
      const profile = await createProfile(admin, cdnId);
      await expectErrors([
        [
          admin.post('profiles/99999999/parameters', { name: 'x', configFile: 'y', value: 'z', secure: 0 }),
          404,
          'no profile with ID 99999999 exists',
        ],
        [
          admin.post(`profiles/${profile.id}/parameters`, { name: 'x', configFile: 'y' }),
          400,
          'parse error: validating: object 0: required fields missing: secure, value',
        ],
        [
          admin.post(`profiles/${profile.id}/parameters`, {
            name: 1,
            configFile: 'y',
            value: 'z',
            secure: 0,
          }),
          400,
          "parse error: decoding: object 0: 'name' must be a string",
        ],
      ]);
      expectMalformedJson(await admin.raw('post', `profiles/${profile.id}/parameters`, '[{'));
      expectError(
        await admin.post('profiles/x/parameters', { name: 'x', configFile: 'y', value: 'z', secure: 0 }),
        400,
        "getting integer parameters: parameter 'id' not an integer",
      );
      expect(await paramsOf(profile.id)).toEqual([]);
    });
  });

  describe('POST parameterprofile', () => {
    it('assigns a parameter to profiles, keeping links that exist, and echoes the body', async () => {
      const [a, b, c] = [
        await createProfile(admin, cdnId),
        await createProfile(admin, cdnId),
        await createProfile(admin, cdnId),
      ];
      const param = await createParameter(admin);
      await assignParameter(admin, a.id, param.id);
      const res = expectOk(
        await admin.post('parameterprofile', { paramId: param.id, profileIds: [a.id, b.id] }),
      );
      expect(res.body).toEqual({
        alerts: [{ level: 'success', text: `2 profiles were assigned to the ${param.id} parameter` }],
        response: { paramId: param.id, profileIds: [a.id, b.id], replace: false },
      });
      expect(await profilesOf(param.id)).toEqual([a.id, b.id]);
      const replaced = await admin.post('parameterprofile', {
        paramId: param.id,
        profileIds: [c.id],
        replace: true,
      });
      expectSuccessAlert(replaced, `1 profiles were assigned to the ${param.id} parameter`);
      expect(await profilesOf(param.id)).toEqual([c.id]);
    });

    it('refuses missing fields, unknown ids and wrong types, writing nothing', async () => {
      const profile = await createProfile(admin, cdnId);
      const param = await createParameter(admin);
      await expectErrors([
        [
          admin.post('parameterprofile', {}),
          400,
          'parse error: validating: paramId missing, profileIds missing',
        ],
        [
          admin.post('parameterprofile', { paramId: 99999999, profileIds: [profile.id, 99999998] }),
          400,
          `parse error: validating: no parameter with ID 99999999 exists, profiles with IDs [${profile.id} 99999998] don't all exist`,
        ],
        [
          admin.post('parameterprofile', { paramId: 'x', profileIds: [2 ** 31], replace: 1 }),
          400,
          "parse error: decoding: 'paramId' must be an integer, 'profileIds[0]' must be no greater than 2147483647, 'replace' must be a boolean",
        ],
        [
          admin.post('parameterprofile', { paramId: 'x' }),
          400,
          "parse error: decoding: 'paramId' must be an integer",
        ],
        [
          admin.post('parameterprofile', { profileIds: [1, 'a', 2 ** 31], paramId: 1.5 }),
          400,
          "parse error: decoding: 'paramId' must be an integer, 'profileIds[1]' must be an integer",
        ],
        [
          admin.post('parameterprofile', { paramId: 1, profileIds: 'x', replace: null }),
          400,
          "parse error: decoding: 'profileIds' must be an array of integers",
        ],
        [
          admin.post('parameterprofile', { paramId: null, profileIds: null }),
          400,
          'parse error: validating: paramId missing, profileIds missing',
        ],
        [
          admin.post('parameterprofile', [{ paramId: 1 }]),
          400,
          'parse error: decoding: the request body must be a JSON object',
        ],
        [admin.post('parameterprofile'), 400, 'parse error: decoding: EOF'],
      ]);
      expectMalformedJson(await admin.raw('post', 'parameterprofile', '{"paramId"'));
      expect(await profilesOf(param.id)).toEqual([]);
    });
  });
});
