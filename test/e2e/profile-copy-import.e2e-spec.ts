import { responseOf, uniqueName } from 'test/e2e/support/api';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
  type ProfileResponse,
} from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

describe('profile copy and import', () => {
  const { admin } = useApp();
  let cdn: { id: number; name: string };

  const profileNamed = async (name: string): Promise<ProfileResponse[]> =>
    responseOf<ProfileResponse[]>(await admin.get(`profiles?name=${encodeURIComponent(name)}`));
  const paramIdsOf = async (id: number): Promise<number[]> =>
    responseOf<{ id: number }[]>(await admin.get(`profiles/${id}/parameters`))
      .map((p) => p.id)
      .sort((a, b) => a - b);

  beforeAll(async () => {
    cdn = await createCdn(admin);
  });

  describe('POST profiles/name/{new}/copy/{existing}', () => {
    it.each(['3.0', '4.0', '5.0'])('copies a profile and its parameters on %s', async (version) => {
      const from = await createProfile(admin, cdn.id);
      const p1 = await createParameter(admin);
      const p2 = await createParameter(admin);
      await assignParameter(admin, from.id, p1.id);
      await assignParameter(admin, from.id, p2.id);
      const name = uniqueName('copy');
      const res = expectOk(await admin.at(version).post(`profiles/name/${name}/copy/${from.name}`));
      expectSuccessAlert(res, `created new profile [${name}] from existing profile [${from.name}]`);
      const copy = responseOf<{ id: number }>(res);
      expect(copy).toEqual({
        id: expect.any(Number),
        name,
        idCopyFrom: from.id,
        profileCopyFrom: from.name,
        description: from.description,
      });
      const [created] = await profileNamed(name);
      expect(created).toEqual({ ...from, id: copy.id, name, lastUpdated: expect.any(String) });
      expect(await paramIdsOf(copy.id)).toEqual(await paramIdsOf(from.id));
    });

    it('refuses a name with spaces, a taken name and an unknown source, writing nothing', async () => {
      const from = await createProfile(admin, cdn.id);
      const other = await createProfile(admin, cdn.id);
      expectError(
        await admin.post(`profiles/name/${encodeURIComponent('a b')}/copy/${from.name}`),
        400,
        'new Profile name cannot contain spaces',
      );
      expectError(
        await admin.post(`profiles/name/${other.name}/copy/${from.name}`),
        400,
        `profile with name ${other.name} already exists`,
      );
      const name = uniqueName('copy');
      expectError(
        await admin.post(`profiles/name/${name}/copy/no-such-profile`),
        404,
        'profile with name no-such-profile does not exist',
      );
      expect(await profileNamed(name)).toEqual([]);
    });
  });

  describe('POST profiles/import', () => {
    it('imports a profile, creating new parameters and reusing existing ones', async () => {
      const existing = await createParameter(admin, { configFile: 'a.config', value: 'v' });
      const name = uniqueName('imported');
      const newName = uniqueName('param');
      const res = await admin.post('profiles/import', {
        profile: { name, description: 'imported profile', cdn: cdn.name, type: 'ATS_PROFILE' },
        parameters: [
          { config_file: 'a.config', name: existing.name, value: 'v' },
          { config_file: 'b.config', name: newName, value: 'w' },
          { config_file: 'b.config', name: newName, value: 'w' },
        ],
      });
      expectOk(res);
      expectSuccessAlert(res, `Profile imported [ ${name} ] with 1 new and 1 existing parameters`);
      const imported = responseOf<{ id: number }>(res);
      expect(imported).toEqual({
        name,
        description: 'imported profile',
        cdn: cdn.name,
        type: 'ATS_PROFILE',
        id: expect.any(Number),
      });
      const [profile] = await profileNamed(name);
      expect(profile).toMatchObject({
        id: imported.id,
        cdn: cdn.id,
        type: 'ATS_PROFILE',
        routingDisabled: false,
      });
      const params = responseOf<{ id: number; name: string; secure: boolean }[]>(
        await admin.get(`profiles/${imported.id}/parameters`),
      );
      expect(params.map((p) => p.name).sort()).toEqual([existing.name, newName].sort());
      expect(params.every((p) => !p.secure)).toBe(true);
    });

    it('lists every problem in the original order, writing nothing', async () => {
      const taken = await createProfile(admin, cdn.id);
      await expectErrors([
        [
          admin.post('profiles/import', { profile: { name: 'a b' }, parameters: [{ name: 'x' }] }),
          400,
          "validating: 'name' cannot contain spaces, 'description' cannot be blank, 'cdnName' cannot be blank, 'type' cannot be blank, parameter 0: required fields missing: configFile, value",
        ],
        [
          admin.post('profiles/import', {
            profile: { name: taken.name, description: 'd', cdn: 'no-such-cdn', type: 'ATS_PROFILE' },
          }),
          400,
          `validating: no-such-cdn CDN does not exist, a profile with the name "${taken.name}" already exists`,
        ],
        [admin.post('profiles/import', { profile: { name: 7 } }), 400, "decoding: 'name' must be a string"],
        [
          admin.post('profiles/import', {
            parameters: [7, { config_file: 1, name: 'n'.repeat(1025), value: [] }],
            profile: { type: 'x'.repeat(33), name: null, description: 5, cdn: 'c' },
          }),
          400,
          "decoding: 'description' must be a string, 'type' the length must be no more than 32, parameter 0: must be a JSON object, parameter 1: 'config_file' must be a string, parameter 1: 'name' the length must be no more than 1024, parameter 1: 'value' must be a string",
        ],
        [
          admin.post('profiles/import', { profile: [], parameters: {} }),
          400,
          "decoding: 'profile' must be a JSON object, 'parameters' must be an array",
        ],
        [
          admin.post('profiles/import', { profile: null, parameters: null }),
          400,
          "validating: 'name' required and cannot be blank, 'description' cannot be blank, 'cdnName' cannot be blank, 'type' cannot be blank",
        ],
        [
          admin.post('profiles/import', {
            profile: { name: 'a' },
            parameters: [{ config_file: '', value: null }, {}],
          }),
          400,
          "validating: 'description' cannot be blank, 'cdnName' cannot be blank, 'type' cannot be blank, parameter 0: required fields missing: configFile, name, value, parameter 1: required fields missing: configFile, name, value",
        ],
        [
          admin.post('profiles/import', [{ profile: {} }]),
          400,
          'decoding: the request body must be a JSON object',
        ],
        [
          admin.raw('post', 'profiles/import', 'null'),
          400,
          'decoding: the request body must be a JSON object',
        ],
        [admin.post('profiles/import'), 400, 'decoding: EOF'],
      ]);
      const name = uniqueName('imported');
      expectError(
        await admin.post('profiles/import', {
          profile: { name, description: 'd', cdn: cdn.name, type: 'NOPE' },
          parameters: [],
        }),
        400,
        'invalid enum value NOPE for field profile_type.',
      );
      expectMalformedJson(await admin.raw('post', 'profiles/import', '{"profile"'));
      expect(await profileNamed(name)).toEqual([]);
    });
  });
});
