import { responseOf } from 'test/e2e/support/api';
import { createUser } from 'test/e2e/support/accounts';
import { assignFederationUsers, createFederation } from 'test/e2e/support/fixtures/federations';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { useApp } from 'test/e2e/support/suite';

const DAY = 24 * 3600 * 1000;
const httpDate = (offsetMs: number) => new Date(Date.now() + offsetMs).toUTCString();

/**
 * `GET federations/{id}/users` answers If-Modified-Since from the federations' user assignments
 * (writes and deletions, including those cascaded from a deleted user), as the original does.
 */
describe('federations/{id}/users: conditional GET', () => {
  const { app, admin } = useApp();

  it('answers 304 when nothing changed since, and the list after an assignment or a removal', async () => {
    const cdn = await createCdn(admin);
    const federation = await createFederation(admin, cdn.name);
    const user = await createUser(app, admin, 'federation');
    await assignFederationUsers(admin, federation.id, [user.id]);
    const path = `federations/${federation.id}/users`;

    for (const version of ['4.0', '5.0']) {
      const unchanged = await admin.at(version).get(path).set('If-Modified-Since', httpDate(DAY));
      expect([unchanged.status, unchanged.text]).toEqual([304, '']);
    }

    const before = new Date(Date.now() - 2000).toUTCString();
    const changed = await admin.get(path).set('If-Modified-Since', before);
    expect(changed.status).toBe(200);
    expect(responseOf<{ id: number }[]>(changed).map((u) => u.id)).toEqual([user.id]);

    const seen = httpDate(0);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await admin.delete(`${path}/${user.id}`)).status).toBe(200);
    const afterRemoval = await admin.get(path).set('If-Modified-Since', seen);
    expect(afterRemoval.status).toBe(200);
    expect(responseOf(afterRemoval)).toEqual([]);
  });
});
