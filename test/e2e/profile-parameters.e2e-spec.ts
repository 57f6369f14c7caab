import type { ProfileParameterWire } from 'src/modules/profile-parameters/dto/profile-parameter.response';
import request from 'supertest';
import type { App } from 'supertest/types';
import { responseOf, type Wire } from 'test/e2e/support/api';
import { createRole, createUser } from 'test/e2e/support/accounts';
import { expectError, expectErrors, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME } from 'test/e2e/support/times';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
  type ProfileResponse,
} from 'test/e2e/support/fixtures/profiles';
import { INVALID_PAGING } from 'test/e2e/support/list-params';
import { useApp } from 'test/e2e/support/suite';

type Link = Wire<ProfileParameterWire>;

describe('profileparameters', () => {
  const { app, admin, readOnly, operations } = useApp({
    users: { readOnly: 'read-only', operations: 'operations' },
  });
  let cdnId: number;
  let profile: ProfileResponse;

  const linksOf = async (profileId: number): Promise<Link[]> =>
    responseOf<Link[]>(await admin.get(`profileparameters?profileId=${profileId}`));

  beforeAll(async () => {
    cdnId = (await createCdn(admin)).id;
    profile = await createProfile(admin, cdnId);
  });

  describe('GET /profileparameters', () => {
    it('lists assignments with the profile name and parameter id, by parameter', async () => {
      const res = expectOk(await readOnly.client.get('profileparameters'));
      const links = responseOf<Link[]>(res);
      const global = links.filter((l) => l.profile === 'GLOBAL');
      expect(global).toHaveLength(3);
      expect(global[0]).toEqual({
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
        profile: 'GLOBAL',
        parameter: expect.any(Number),
      });
      const ids = links.map((l) => l.parameter);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('filters by profileId and parameterId, orders and pages', async () => {
      const p = await createProfile(admin, cdnId);
      const a = await createParameter(admin);
      const b = await createParameter(admin);
      await assignParameter(admin, p.id, b.id);
      await assignParameter(admin, p.id, a.id);
      const links = await linksOf(p.id);
      expect(links.map((l) => l.parameter)).toEqual([a.id, b.id]);
      expect(links.every((l) => l.profile === p.name)).toBe(true);
      expect(
        responseOf<Link[]>(await admin.get(`profileparameters?profileId=${p.id}&parameterId=${b.id}`)).map(
          (l) => l.parameter,
        ),
      ).toEqual([b.id]);
      expect(
        responseOf<Link[]>(
          await admin.get(`profileparameters?profileId=${p.id}&orderby=parameter&sortOrder=desc`),
        ).map((l) => l.parameter),
      ).toEqual([b.id, a.id]);
      expect(responseOf(await admin.get(`profileparameters?profileId=${p.id}&limit=1&offset=1`))).toEqual([
        links[1],
      ]);
      expect(responseOf(await admin.get(`profileparameters?profileId=${p.id}&limit=1&page=2`))).toEqual([
        links[1],
      ]);
      const byProfile = responseOf<Link[]>(await admin.get('profileparameters?orderby=profile')).map(
        (l) => l.profile,
      );
      expect(byProfile).toEqual([...byProfile].sort());
    });

    it.each([
      ['profileId=x', 'profileId cannot parse to integer'],
      ['parameterId=x', 'parameterId cannot parse to integer'],
      ...INVALID_PAGING,
    ])('rejects %s', async (query, text) => {
      expectError(await admin.get(`profileparameters?${query}`), 400, text);
    });
  });

  describe('POST /profileparameters', () => {
    it('assigns one parameter from an object, in every version', async () => {
      for (const version of ['3.0', '4.0', '5.0']) {
        const parameter = await createParameter(admin);
        const res = await operations.client
          .at(version)
          .post('profileparameters', { profileId: profile.id, parameterId: parameter.id });
        expectOk(res, 'profileParameter was created.');
        expect(responseOf(res)).toEqual({
          lastUpdated: null,
          profile: null,
          profileId: profile.id,
          parameter: null,
          parameterId: parameter.id,
        });
        expect((await linksOf(profile.id)).map((l) => l.parameter)).toContain(parameter.id);
      }
    });

    it('assigns several from an array (response null), one from an array of one, none from []', async () => {
      const p = await createProfile(admin, cdnId);
      const a = await createParameter(admin);
      const b = await createParameter(admin);
      const res = await admin.post('profileparameters', [
        { profileId: p.id, parameterId: a.id },
        { profileId: p.id, parameterId: b.id },
      ]);
      expectSuccessAlert(res, 'profileParameters were created.');
      expect(res.body).toEqual({
        alerts: [{ text: 'profileParameters were created.', level: 'success' }],
        response: null,
      });
      expect((await linksOf(p.id)).map((l) => l.parameter)).toEqual([a.id, b.id]);
      const c = await createParameter(admin);
      const one = await admin.post('profileparameters', [{ profileId: p.id, parameterId: c.id }]);
      expectSuccessAlert(one, 'profileParameter was created.');
      expect(responseOf<{ parameterId: number }>(one).parameterId).toBe(c.id);
      const empty = await admin.post('profileparameters', []);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({
        alerts: [{ text: 'No objects were provided in request.', level: 'success' }],
      });
    });

    it.each([
      [{}, "'profileId' cannot be blank, 'parameterId' cannot be blank"],
      [{ profileId: 0, parameterId: 0 }, "'profileId' cannot be blank, 'parameterId' cannot be blank"],
      [{ parameterId: 1 }, "'profileId' cannot be blank"],
      [{ profileId: 1 }, "'parameterId' cannot be blank"],
      [{ profileId: '1', parameterId: 1 }, "'profileId' must be an integer"],
      [{ profileId: 1, parameterId: 1.5 }, "'parameterId' must be an integer"],
    ])('refuses %j', async (sent, text) => {
      expectError(await admin.post('profileparameters', sent), 400, text);
    });

    it('refuses a request without a body, and malformed JSON', async () => {
      const res = await request(app.getHttpServer() as App)
        .post('/api/4.0/profileparameters')
        .set('Cookie', admin.cookie!);
      expectError(res, 400, 'no request body supplied');
      const bad = await admin.raw('post', 'profileparameters', '{"profileId":');
      expectMalformedJson(bad);
    });

    it('refuses a duplicate and unknown ids, writing nothing of the array', async () => {
      const p = await createProfile(admin, cdnId);
      const a = await createParameter(admin);
      const b = await createParameter(admin);
      await assignParameter(admin, p.id, a.id);
      await expectErrors([
        [
          admin.post('profileparameters', { profileId: p.id, parameterId: a.id }),
          400,
          `profile_parameter profile, parameter '${p.id}, ${a.id}' already exists.`,
        ],
        [
          admin.post('profileparameters', [
            { profileId: p.id, parameterId: b.id },
            { profileId: p.id, parameterId: a.id },
          ]),
          400,
          `profile_parameter profile, parameter '${p.id}, ${a.id}' already exists.`,
        ],
        [
          admin.post('profileparameters', { profileId: p.id, parameterId: 999999 }),
          404,
          'parameter not found',
        ],
        [admin.post('profileparameters', { profileId: 999999, parameterId: b.id }), 404, 'profile not found'],
        [
          admin.post('profileparameters', [
            { profileId: p.id, parameterId: b.id },
            { profileId: 999999, parameterId: b.id },
          ]),
          404,
          'profile not found',
        ],
      ]);
      expect((await linksOf(p.id)).map((l) => l.parameter)).toEqual([a.id]);
    });

    it('names, on 4.0, the permissions the user lacks', async () => {
      const parameter = await createParameter(admin);
      const sent = { profileId: profile.id, parameterId: parameter.id };
      const user = await createUser(app, admin, await createRole(admin, ['PROFILE:READ', 'PARAMETER:READ']));
      expectError(
        await user.client.post('profileparameters', sent),
        403,
        'missing required Permissions: PROFILE:UPDATE',
      );
      expectSuccessAlert(
        await user.client.at('3.0').post('profileparameters', sent),
        'profileParameter was created.',
      );
    });
  });

  describe('DELETE /profileparameters/{profileId}/{parameterId}', () => {
    it('removes an assignment, keeping the parameter', async () => {
      const parameter = await createParameter(admin);
      await assignParameter(admin, profile.id, parameter.id);
      expectOk(
        await operations.client.delete(`profileparameters/${profile.id}/${parameter.id}`),
        'profileParameter was deleted.',
      );
      expect((await linksOf(profile.id)).map((l) => l.parameter)).not.toContain(parameter.id);
      expect(responseOf<unknown[]>(await admin.get(`parameters?id=${parameter.id}`))).toHaveLength(1);
      expectError(
        await admin.delete(`profileparameters/${profile.id}/${parameter.id}`),
        404,
        'no profileParameter with that key found',
      );
    });

    it('refuses bad keys and low levels', async () => {
      await expectErrors([
        [admin.delete('profileparameters/x/1'), 400, 'failed to parse key: profileId'],
        [admin.delete(`profileparameters/${profile.id}/y`), 400, 'failed to parse key: parameterId'],
      ]);
      const parameter = await createParameter(admin);
      await assignParameter(admin, profile.id, parameter.id);
      const user = await createUser(app, admin, await createRole(admin, ['PROFILE:READ', 'PARAMETER:READ']));
      expectError(
        await user.client.delete(`profileparameters/${profile.id}/${parameter.id}`),
        403,
        'missing required Permissions: PROFILE:UPDATE',
      );
      expect((await linksOf(profile.id)).map((l) => l.parameter)).toContain(parameter.id);
    });
  });
});
