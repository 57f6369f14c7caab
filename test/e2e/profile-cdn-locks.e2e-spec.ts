import { responseOf } from 'test/e2e/support/api';
import { expectError, expectErrors } from 'test/e2e/support/alerts';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
} from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

/**
 * A hard lock on a CDN refuses other users' writes to its profiles and their parameter links
 * (POST/PUT/DELETE profiles, POST/DELETE profileparameters) with 403; the holder and the users the
 * lock is shared with may go on; a soft lock refuses nothing.
 */
describe('CDN locks on profiles and profile parameters', () => {
  const { admin, holder, sharer } = useApp({ users: { holder: 'operations', sharer: 'operations' } });

  const profileBody = (cdnId: number, name: string) => ({
    name,
    description: `profile ${name}`,
    cdn: cdnId,
    type: 'ATS_PROFILE',
    routingDisabled: false,
  });
  const profileCount = async (name: string): Promise<number> =>
    responseOf<unknown[]>(await admin.get(`profiles?name=${encodeURIComponent(name)}`)).length;
  const links = async (profileId: number): Promise<number[]> =>
    responseOf<{ id: number }[]>(await admin.get(`profiles/${profileId}/parameters`)).map((p) => p.id);

  const withLock = async (cdnName: string, soft: boolean, body: () => Promise<void>): Promise<void> => {
    const taken = await holder.client.post('cdn_locks', {
      cdn: cdnName,
      message: 'maintenance',
      soft,
      sharedUserNames: [sharer.username],
    });
    expect(taken.status).toBe(200);
    try {
      await body();
    } finally {
      const released = await holder.client.delete(`cdn_locks?cdn=${encodeURIComponent(cdnName)}`);
      expect(released.status).toBe(200);
    }
  };

  it("a hard lock refuses other users' profile and profile parameter writes, and nothing changes", async () => {
    const cdn = await createCdn(admin);
    const profile = await createProfile(admin, cdn.id);
    const linked = await createParameter(admin);
    const unlinked = await createParameter(admin);
    await assignParameter(admin, profile.id, linked.id);
    const hard = `user ${holder.username} currently has a hard lock on cdn ${cdn.name}`;
    await withLock(cdn.name, false, async () => {
      const name = `${profile.name}-new`;
      expectError(await admin.post('profiles', profileBody(cdn.id, name)), 403, hard);
      expect(await profileCount(name)).toBe(0);
      expectError(await admin.put(`profiles/${profile.id}`, profileBody(cdn.id, name)), 403, hard);
      expect(await profileCount(profile.name)).toBe(1);
      expectError(await admin.delete(`profiles/${profile.id}`), 403, hard);
      expectError(
        await admin.post('profileparameters', { profileId: profile.id, parameterId: unlinked.id }),
        403,
        hard,
      );
      expectError(await admin.delete(`profileparameters/${profile.id}/${linked.id}`), 403, hard);
      expect(await links(profile.id)).toEqual([linked.id]);

      const holderName = `${profile.name}-holder`;
      expect((await holder.client.post('profiles', profileBody(cdn.id, holderName))).status).toBe(200);
      expect(
        (await sharer.client.post('profileparameters', { profileId: profile.id, parameterId: unlinked.id }))
          .status,
      ).toBe(200);
      expect((await sharer.client.delete(`profileparameters/${profile.id}/${linked.id}`)).status).toBe(200);
      expect(
        (await holder.client.put(`profiles/${profile.id}`, profileBody(cdn.id, profile.name))).status,
      ).toBe(200);
      const created = responseOf<{ id: number }[]>(
        await admin.get(`profiles?name=${encodeURIComponent(holderName)}`),
      )[0];
      expect((await sharer.client.delete(`profiles/${created.id}`)).status).toBe(200);
    });
    expect(await links(profile.id)).toEqual([unlinked.id]);
  });

  it('a soft lock, or none, refuses none of them', async () => {
    const cdn = await createCdn(admin);
    const profile = await createProfile(admin, cdn.id);
    const parameter = await createParameter(admin);
    await withLock(cdn.name, true, async () => {
      const name = `${profile.name}-soft`;
      expect((await admin.post('profiles', profileBody(cdn.id, name))).status).toBe(200);
      expect(
        (await admin.post('profileparameters', { profileId: profile.id, parameterId: parameter.id })).status,
      ).toBe(200);
      expect((await admin.delete(`profileparameters/${profile.id}/${parameter.id}`)).status).toBe(200);
    });
    expect((await admin.delete(`profiles/${profile.id}`)).status).toBe(200);
  });

  it('answers the missing profile or link, not the lock', async () => {
    await expectErrors([
      [admin.delete('profiles/2147483000'), 404, 'no profile with that key found'],
      [
        admin.delete('profileparameters/2147483000/2147483000'),
        404,
        'no profileParameter with that key found',
      ],
    ]);
  });
});
