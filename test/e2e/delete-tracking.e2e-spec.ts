import { responseOf } from 'test/e2e/support/api';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { insertDeliveryService } from 'test/e2e/support/fixtures/delivery-services';
import {
  assignParameter,
  createCdn,
  createParameter,
  createProfile,
} from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

const pause = () => new Promise((resolve) => setTimeout(resolve, 1100));

/**
 * A row removed by a foreign key's ON DELETE CASCADE is a deletion too: a list that answers
 * If-Modified-Since must not answer 304 after it (docs/database.md, "Delete tracking"). MySQL does
 * not fire the child table's delete trigger for cascaded deletions, so the parent tables record them.
 */
describe('delete tracking of cascaded deletions', () => {
  const { app, admin } = useApp();

  /** `list` answers 304 for a date just after `setUp`, then 200 once `remove` ran. */
  const expectDeletionSeen = async (list: string, remove: () => Promise<void>): Promise<void> => {
    await pause();
    const before = new Date().toUTCString();
    expect((await admin.get(list).set('If-Modified-Since', before)).status).toBe(304);
    await pause();
    await remove();
    const after = await admin.get(list).set('If-Modified-Since', before);
    expect(after.status).toBe(200);
    expect(new Date(after.headers['last-modified']).getTime()).toBeGreaterThan(new Date(before).getTime());
  };

  it('GET profileparameters sees assignments removed with their parameter', async () => {
    const cdn = await createCdn(admin);
    const profile = await createProfile(admin, cdn.id);
    const parameter = await createParameter(admin);
    await assignParameter(admin, profile.id, parameter.id);

    await expectDeletionSeen('profileparameters', async () => {
      expect((await admin.delete(`parameters/${parameter.id}`)).status).toBe(200);
    });
    const remaining = responseOf<{ profile: string }[]>(
      await admin.get(`profileparameters?profileId=${profile.id}`),
    );
    expect(remaining).toEqual([]);
  });

  it('GET deliveryserviceserver sees assignments removed with their delivery service', async () => {
    const cdn = await createCdn(admin);
    const server = await createServer(admin, cdn.id, { cachegroupId: (await createCachegroup(admin)).id });
    const ds = await insertDeliveryService(app, cdn.id);
    const assigned = await admin.post('deliveryserviceserver', {
      dsId: ds.id,
      servers: [server.id],
      replace: false,
    });
    expect(assigned.status).toBe(200);

    await expectDeletionSeen('deliveryserviceserver', async () => {
      expect((await admin.delete(`deliveryservices/${ds.id}`)).status).toBe(200);
    });
  });
});
