import type { INestApplication } from '@nestjs/common';
import {
  ApiClient,
  createRole,
  createUser,
  type CreatedUser,
  expectApiHeaders,
  expectError,
  responseOf,
} from 'test/e2e/support/api';
import { createTestApp } from 'test/e2e/support/app';
import { INVALID_PAGING } from 'test/e2e/support/list-params';

interface Status {
  id: number;
  name: string;
  description: string | null;
  lastUpdated: string;
}

const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00$/;
const SEEDED = ['ADMIN_DOWN', 'CCR_IGNORE', 'OFFLINE', 'ONLINE', 'PRE_PROD', 'REPORTED'];

describe('statuses', () => {
  let app: INestApplication;
  let admin: ApiClient;
  let readOnly: CreatedUser;
  let withoutPermissions: CreatedUser;

  const list = async (query = ''): Promise<Status[]> =>
    responseOf<Status[]>(await admin.get(`statuses${query}`));

  beforeAll(async () => {
    app = await createTestApp();
    admin = await ApiClient.admin(app);
    readOnly = await createUser(app, admin, 'read-only');
    withoutPermissions = await createUser(app, admin, await createRole(admin, ['TYPE:READ']));
  });

  afterAll(() => app.close());

  it.each(['3.0', '4.0', '4.1', '5.0'])(
    'lists the seeded statuses ordered by name on %s',
    async (version) => {
      const res = await readOnly.client.at(version).get('statuses');
      expect(res.status).toBe(200);
      expectApiHeaders(res);
      const statuses = responseOf<Status[]>(res);
      expect(statuses.map((s) => s.name)).toEqual(expect.arrayContaining(SEEDED));
      expect(statuses.find((s) => s.name === 'ONLINE')).toEqual({
        id: expect.any(Number),
        name: 'ONLINE',
        description: 'Server is online.',
        lastUpdated: expect.stringMatching(TIMESTAMP),
      });
      const names = statuses.map((s) => s.name);
      expect(names).toEqual([...names].sort());
    },
  );

  it('filters by id, name and description', async () => {
    const [offline] = await list('?name=OFFLINE');
    expect(offline).toMatchObject({ name: 'OFFLINE', description: 'Server is offline.' });
    expect(await list(`?id=${offline.id}`)).toEqual([offline]);
    expect(await list(`?description=${encodeURIComponent('Server is offline.')}`)).toEqual([offline]);
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

  it.each([...INVALID_PAGING])('rejects %s', async (query, text) => {
    expectError(await admin.get(`statuses?${query}`), 400, text);
  });

  it('needs a session', async () => {
    expectError(await ApiClient.anonymous(app).get('statuses'), 401, 'unauthorized, please log in.');
  });

  it('needs STATUS:READ on 4.0 and later, not on 3.x', async () => {
    expectError(
      await withoutPermissions.client.get('statuses'),
      403,
      'missing required Permissions: STATUS:READ',
    );
    expect((await withoutPermissions.client.at('3.0').get('statuses')).status).toBe(200);
  });

  it('has no GET /statuses/{id} route (3.0 and later)', async () => {
    const [online] = await list('?name=ONLINE');
    expectError(
      await admin.get(`statuses/${online.id}`),
      404,
      `The requested path '/api/4.0/statuses/${online.id}' does not exist.`,
    );
  });
});
