import { responseOf } from 'test/e2e/support/api';
import { createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';

import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
  type ProfileResponse,
} from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

const VERSIONS = ['3.0', '3.1', '4.0', '4.1', '5.0'];

/** POST /profileparameter: several parameters assigned to one profile (docs/original-behaviour.md#profileparameter). */
describe('profileparameter (one profile, several parameters)', () => {
  const { app, admin } = useApp();
  let cdnId: number;

  /** The ids of the parameters linked to a profile, ascending. */
  const paramsOf = async (profileId: number): Promise<number[]> =>
    responseOf<{ parameter: number }[]>(await admin.get(`profileparameters?profileId=${profileId}`))
      .map((link) => link.parameter)
      .sort((a, b) => a - b);

  const fresh = async (): Promise<{ profile: ProfileResponse; params: number[] }> => {
    const profile = await createProfile(admin, cdnId);
    const params = [];
    for (let i = 0; i < 3; i++) {
      params.push((await createParameter(admin)).id);
    }
    return { profile, params };
  };

  beforeAll(async () => {
    cdnId = (await createCdn(admin)).id;
  });

  it.each(VERSIONS)('assigns parameters, keeping those already linked, on %s', async (version) => {
    const { profile, params } = await fresh();
    await assignParameter(admin, profile.id, params[0]);
    const res = await admin.at(version).post('profileparameter', {
      profileId: profile.id,
      paramIds: [params[0], params[1], params[1]],
    });
    expectOk(res, `3 parameters were assigned to the ${profile.name} profile`);
    expect(responseOf(res)).toEqual({
      profileId: profile.id,
      paramIds: [params[0], params[1], params[1]],
      replace: false,
    });
    expect(await paramsOf(profile.id)).toEqual([params[0], params[1]]);
  });

  it('replaces the profile’s parameters when replace is true, and clears them with an empty list', async () => {
    const { profile, params } = await fresh();
    await assignParameter(admin, profile.id, params[0]);
    const res = await admin.post('profileparameter', {
      profileId: profile.id,
      paramIds: [params[1], params[2]],
      replace: true,
    });
    expectSuccessAlert(res, `2 parameters were assigned to the ${profile.name} profile`);
    expect(responseOf(res)).toEqual({
      profileId: profile.id,
      paramIds: [params[1], params[2]],
      replace: true,
    });
    expect(await paramsOf(profile.id)).toEqual([params[1], params[2]]);
    const cleared = await admin.post('profileparameter', {
      profileId: profile.id,
      paramIds: [],
      replace: true,
    });
    expectSuccessAlert(cleared, `0 parameters were assigned to the ${profile.name} profile`);
    expect(await paramsOf(profile.id)).toEqual([]);
  });

  it('lets operations assign; refuses read-only with the level and, on 4.0+, the permissions', async () => {
    const { profile, params } = await fresh();
    const operations = await createUser(app, admin, 'operations');
    expect(
      (await operations.client.post('profileparameter', { profileId: profile.id, paramIds: [params[0]] }))
        .status,
    ).toBe(200);
    const role = await createRole(admin, ['PROFILE:READ', 'PARAMETER:READ']);
    const limited = await createUser(app, admin, role);
    expectError(
      await limited.client.post('profileparameter', { profileId: profile.id, paramIds: [params[1]] }),
      403,
      'missing required Permissions: PROFILE:UPDATE',
    );
    expect(await paramsOf(profile.id)).toEqual([params[0]]);
  });

  it('answers every validation problem at once, in the original’s words, writing nothing', async () => {
    const { profile, params } = await fresh();
    await assignParameter(admin, profile.id, params[0]);
    const cases: [unknown, string][] = [
      [{}, 'parse error: validating: profileId missing, paramIds missing'],
      [{ profileId: profile.id }, 'parse error: validating: paramIds missing'],
      [{ paramIds: [params[1]], replace: true }, 'parse error: validating: profileId missing'],
      [
        { profileId: 2147480000, paramIds: [params[1], 2147480001, 2147480002] },
        "parse error: validating: no profile with ID 2147480000 exists, parameters with IDs [2147480001 2147480002] don't exist",
      ],
      [
        { profileId: profile.id, paramIds: [2147480001], replace: true },
        "parse error: validating: parameters with IDs [2147480001] don't exist",
      ],
      [{ profileId: '1', paramIds: [] }, 'parse error: decoding: profileId must be an integer'],
      [{ profileId: 1.5, paramIds: [] }, 'parse error: decoding: profileId must be an integer'],
      [
        { profileId: 2 ** 31, paramIds: [] },
        'parse error: decoding: profileId must be no greater than 2147483647',
      ],
      [{ profileId: 1, paramIds: 'x' }, 'parse error: decoding: paramIds must be an array of integers'],
      [{ profileId: 1, paramIds: [1, '2'] }, 'parse error: decoding: paramIds must be an array of integers'],
      [
        { profileId: 1, paramIds: [1, -(2 ** 31) - 1] },
        'parse error: decoding: paramIds[1] must be no less than -2147483648',
      ],
      [{ profileId: 1, paramIds: [], replace: 'yes' }, 'parse error: decoding: replace must be a boolean'],
      [[{ profileId: 1, paramIds: [] }], 'parse error: decoding: the request body must be a JSON object'],
    ];
    for (const [body, text] of cases) {
      expectError(await admin.post('profileparameter', body), 400, text);
    }
    expectError(await admin.post('profileparameter'), 400, 'parse error: decoding: EOF');
    expectMalformedJson(await admin.raw('post', 'profileparameter', '{"profileId":'));
    expect(await paramsOf(profile.id)).toEqual([params[0]]);
  });
});
