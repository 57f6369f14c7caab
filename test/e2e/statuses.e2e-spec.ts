import type { StatusWire } from 'src/modules/statuses/dto/status.response';
import { responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { expectError, expectMalformedJson, expectSuccessAlert } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME, timeFormatOn } from 'test/e2e/support/times';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

type Status = Wire<StatusWire>;

const SEEDED = ['ADMIN_DOWN', 'CCR_IGNORE', 'OFFLINE', 'ONLINE', 'PRE_PROD', 'REPORTED'];

describe('statuses', () => {
  const { admin, readOnly } = useApp({ users: { readOnly: 'read-only' } });

  const list = async (query = '', version = '4.0'): Promise<Status[]> =>
    responseOf<Status[]>(await admin.at(version).get(`statuses${query}`));

  it.each(['3.0', '4.0', '4.1', '5.0'])(
    'lists the seeded statuses ordered by name on %s',
    async (version) => {
      const res = expectOk(await readOnly.client.at(version).get('statuses'));
      const statuses = responseOf<Status[]>(res);
      expect(statuses.map((s) => s.name)).toEqual(expect.arrayContaining(SEEDED));
      expect(statuses.find((s) => s.name === 'ONLINE')).toEqual({
        id: expect.any(Number),
        name: 'ONLINE',
        description: 'Server is online.',
        lastUpdated: expect.stringMatching(timeFormatOn(version)),
      });
      const names = statuses.map((s) => s.name);
      expect(names).toEqual([...names].sort());
    },
  );

  it('filters by id, name and description', async () => {
    const [offline] = await list('?name=OFFLINE');
    expect(offline).toMatchObject({
      name: 'OFFLINE',
      description: 'Server is Offline. Not active in any configuration.',
    });
    expect(await list(`?id=${offline.id}`)).toEqual([offline]);
    expect(
      await list(`?description=${encodeURIComponent('Server is Offline. Not active in any configuration.')}`),
    ).toEqual([offline]);
    expect(await list('?name=NO_SUCH_STATUS')).toEqual([]);
  });

  it('rejects an id filter that is not an integer', async () => {
    expectError(await admin.get('statuses?id=one'), 400, 'id cannot parse to integer');
  });

  it('orders by a field of the response, either way, and pages', async () => {
    const all = await list('?orderby=id');
    const ids = all.map((s) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const desc = (await list('?orderby=name&sortOrder=desc')).map((s) => s.name);
    expect(desc).toEqual([...desc].sort().reverse());
    expect(await list('?orderby=id&limit=2')).toEqual(all.slice(0, 2));
    expect(await list('?orderby=id&limit=2&offset=3')).toEqual(all.slice(3, 5));
    expect(await list('?orderby=id&limit=2&page=2')).toEqual(all.slice(2, 4));
  });

  it('has no GET /statuses/{id} route (3.0 and later)', async () => {
    const [online] = await list('?name=ONLINE');
    expectError(
      await admin.get(`statuses/${online.id}`),
      404,
      `The requested path '/api/4.0/statuses/${online.id}' does not exist.`,
    );
  });
  describe('POST /statuses', () => {
    it.each(['3.0', '4.0', '5.0'])('creates a status on %s with the original alert', async (version) => {
      const name = uniqueName('STATUS');
      const res = expectOk(await admin.at(version).post('statuses', { name, description: 'a test status' }));
      expectSuccessAlert(res, 'status was created.');
      const created = responseOf<Status>(res);
      expect(created).toEqual({
        id: expect.any(Number),
        name,
        description: 'a test status',
        lastUpdated: expect.stringMatching(timeFormatOn(version)),
      });
      expect(await list(`?id=${created.id}`, version)).toEqual([created]);
    });

    it('takes a status without a description', async () => {
      const name = uniqueName('STATUS');
      expect(responseOf<Status>(await admin.post('statuses', { name }))).toMatchObject({
        name,
        description: null,
      });
    });

    it('refuses a taken name, exactly compared, and writes nothing', async () => {
      const name = uniqueName('STATUS');
      await admin.post('statuses', { name });
      expectError(await admin.post('statuses', { name }), 400, `status name '${name}' already exists.`);
      expect(await list(`?name=${name}`)).toHaveLength(1);
      expect((await admin.post('statuses', { name: name.toLowerCase() })).status).toBe(200);
    });

    it.each([
      [{}, "'name' is required"],
      [{ name: null }, "'name' is required"],
      [{ name: '' }, "'name' cannot be blank"],
      [{ name: 7 }, "'name' must be a string"],
      [{ name: 'x'.repeat(256) }, "'name' the length must be between 1 and 255"],
      [{ name: 'OK_NAME', description: 12 }, "'description' must be a string"],
    ])('refuses %j: %s', async (body, text) => {
      const before = (await list()).length;
      expectError(await admin.post('statuses', body), 400, text);
      expect(await list()).toHaveLength(before);
    });

    it('refuses malformed JSON and a body that is not an object', async () => {
      expectMalformedJson(await admin.raw('post', 'statuses', '{"name":'));
      expectError(await admin.raw('post', 'statuses', '[]'), 400, 'the request body must be a JSON object');
    });
  });

  describe('PUT /statuses/{id}', () => {
    it('renames and describes a status', async () => {
      const created = responseOf<Status>(await admin.post('statuses', { name: uniqueName('STATUS') }));
      const name = uniqueName('RENAMED');
      const res = await admin.put(`statuses/${created.id}`, { name, description: 'renamed' });
      expect(res.status).toBe(200);
      expectSuccessAlert(res, 'status was updated.');
      expect(responseOf<Status>(res)).toEqual({
        id: created.id,
        name,
        description: 'renamed',
        lastUpdated: expect.stringMatching(CUSTOM_TIME),
      });
    });

    it.each(['ONLINE', 'OFFLINE', 'REPORTED', 'ADMIN_DOWN', 'PRE_PROD'])(
      'refuses to modify the reserved status %s (403) and leaves it as it was',
      async (reserved) => {
        const [status] = await list(`?name=${reserved}`);
        expectError(
          await admin.put(`statuses/${status.id}`, { name: uniqueName('X'), description: 'x' }),
          403,
          `cannot modify ${reserved} status`,
        );
        expect(await list(`?id=${status.id}`)).toEqual([status]);
      },
    );

    it('answers 404 for an unknown id, 400 for a bad id or body', async () => {
      expectError(await admin.put('statuses/2147480000', { name: 'X' }), 404, 'no status found with this id');
      const created = responseOf<Status>(await admin.post('statuses', { name: uniqueName('STATUS') }));
      expectError(await admin.put(`statuses/${created.id}`, { name: '' }), 400, "'name' cannot be blank");
      expect(await list(`?id=${created.id}`)).toEqual([created]);
      expect((await admin.put('statuses/abc', { name: 'X' })).status).toBe(400);
    });

    it('refuses a name another status has', async () => {
      const created = responseOf<Status>(await admin.post('statuses', { name: uniqueName('STATUS') }));
      expectError(
        await admin.put(`statuses/${created.id}`, { name: 'ONLINE' }),
        400,
        "status name 'ONLINE' already exists.",
      );
    });
  });

  describe('DELETE /statuses/{id}', () => {
    it('deletes a status', async () => {
      const created = responseOf<Status>(await admin.post('statuses', { name: uniqueName('STATUS') }));
      const res = await admin.delete(`statuses/${created.id}`);
      expect(res.status).toBe(200);
      expectSuccessAlert(res, 'status was deleted.');
      expect(await list(`?id=${created.id}`)).toEqual([]);
      expectError(await admin.delete(`statuses/${created.id}`), 404, 'no status with that key found');
    });

    it.each(['ONLINE', 'OFFLINE', 'REPORTED', 'ADMIN_DOWN', 'PRE_PROD'])(
      'refuses to delete the reserved status %s (403)',
      async (reserved) => {
        const [status] = await list(`?name=${reserved}`);
        expectError(await admin.delete(`statuses/${status.id}`), 403, `cannot delete ${reserved} status`);
        expect(await list(`?id=${status.id}`)).toEqual([status]);
      },
    );

    it('refuses a status a server has', async () => {
      const created = responseOf<Status>(await admin.post('statuses', { name: uniqueName('STATUS') }));
      await createServer(admin, (await createCdn(admin)).id, { statusName: created.name });
      expectError(
        await admin.delete(`statuses/${created.id}`),
        400,
        'cannot delete status because it is being used by a server',
      );
      expect(await list(`?id=${created.id}`)).toEqual([created]);
    });
  });
});
