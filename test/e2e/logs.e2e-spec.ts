import type { LogView } from 'src/modules/change-log/change-log.service';
import { DataSource } from 'typeorm';
import { ChangeLogService } from 'src/modules/change-log/change-log.service';
import { ApiClient, responseOf, uniqueName, type Wire } from 'test/e2e/support/api';
import { type CreatedUser, createTenant, createUser } from 'test/e2e/support/accounts';
import { expectError } from 'test/e2e/support/alerts';
import { expectOk } from 'test/e2e/support/headers';
import { CUSTOM_TIME_FRACTIONAL } from 'test/e2e/support/times';
import { INVALID_PAGING } from 'test/e2e/support/list-params';
import { useApp } from 'test/e2e/support/suite';

type LogEntry = Wire<LogView>;

describe('change log', () => {
  const { app, admin } = useApp();
  let dataSource: DataSource;

  /** A fresh operations user: the change log filtered by its name holds only what the test did. */
  const operator = () => createUser(app, admin, 'operations');
  const logsOf = async (user: CreatedUser, params = ''): Promise<LogEntry[]> => {
    const res = await admin.get(`logs?username=${user.username}${params}`);
    expect(res.status).toBe(200);
    return responseOf<LogEntry[]>(res);
  };
  const createCdn = async (client: ApiClient): Promise<{ id: number; name: string }> => {
    const name = uniqueName('cdn');
    const res = await client.post('cdns', { name, domainName: `${name}.example.net`, dnssecEnabled: false });
    expect(res.status).toBe(200);
    return responseOf<{ id: number; name: string }>(res);
  };
  const cdnCount = async (name: string): Promise<number> =>
    responseOf<unknown[]>(await admin.get(`cdns?name=${name}`)).length;

  beforeAll(() => {
    dataSource = app.get(DataSource);
  });

  describe('writing', () => {
    it('records a successful write: who, what and which resource', async () => {
      const ops = await operator();
      const cdn = await createCdn(ops.client);
      const [entry, ...rest] = await logsOf(ops);
      expect(rest).toEqual([]);
      expect(entry).toEqual({
        id: expect.any(Number) as number,
        level: 'APICHANGE',
        message: `POST /cdns (id ${cdn.id}, name ${cdn.name}): cdn was created.`,
        ticketNum: null,
        user: ops.username,
        lastUpdated: expect.stringMatching(CUSTOM_TIME_FRACTIONAL) as string,
      });
    });

    it('lists the entries newest first', async () => {
      const ops = await operator();
      const cdn = await createCdn(ops.client);
      const domainName = `${cdn.name}.example.org`;
      expect(
        (await ops.client.put(`cdns/${cdn.id}`, { name: cdn.name, domainName, dnssecEnabled: true })).status,
      ).toBe(200);
      expect((await ops.client.delete(`cdns/${cdn.id}`)).status).toBe(200);
      expect((await logsOf(ops)).map((e) => e.message)).toEqual([
        `DELETE /cdns/${cdn.id}: cdn was deleted.`,
        `PUT /cdns/${cdn.id} (id ${cdn.id}, name ${cdn.name}): cdn was updated.`,
        `POST /cdns (id ${cdn.id}, name ${cdn.name}): cdn was created.`,
      ]);
    });

    it('records nothing for refused writes', async () => {
      const ops = await operator();
      const cdn = await createCdn(ops.client);
      const readOnly = await createUser(app, admin, 'read-only');
      expect((await ops.client.post('cdns', { name: cdn.name, domainName: 'x.example.net' })).status).toBe(
        400,
      );
      expect((await ops.client.post('cdns', { name: 5 })).status).toBe(400);
      expect((await ops.client.raw('post', 'cdns', '{"name":')).status).toBe(400);
      expect((await ops.client.put('cdns/999999', { name: 'x', domainName: 'x.example.net' })).status).toBe(
        404,
      );
      expect((await readOnly.client.post('cdns', { name: 'x', domainName: 'x.example.net' })).status).toBe(
        403,
      );
      expect((await logsOf(ops)).length).toBe(1);
      expect(await logsOf(readOnly)).toEqual([]);
    });

    it('records nothing for sign-in and sign-out', async () => {
      const ops = await operator();
      expect((await ops.client.post('user/logout')).status).toBe(200);
      expect(await logsOf(ops)).toEqual([]);
    });

    it('is part of the write: when the entry cannot be written, the change is rolled back', async () => {
      const ops = await operator();
      const record = jest
        .spyOn(app.get(ChangeLogService), 'record')
        .mockRejectedValueOnce(new Error('change log unavailable'));
      const name = uniqueName('cdn');
      try {
        const res = await ops.client.post('cdns', { name, domainName: `${name}.example.net` });
        expectError(res, 500, 'Internal Server Error');
      } finally {
        record.mockRestore();
      }
      expect(await cdnCount(name)).toBe(0);
      expect(await logsOf(ops)).toEqual([]);
    });
  });

  describe('GET /logs', () => {
    it('answers the list with its count and the headers of every response', async () => {
      const ops = await operator();
      await createCdn(ops.client);
      await createCdn(ops.client);
      const res = expectOk(await ops.client.get(`logs?username=${ops.username}`));
      expect((res.body as { summary: unknown }).summary).toEqual({ count: 2 });
      expect(responseOf<LogEntry[]>(res)).toHaveLength(2);
      const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      expect(cookies.find((c) => c.startsWith('last_seen_log='))).toMatch(
        /^last_seen_log=\d{4}-\d\d-\d\dT[\d:.]+Z; Path=\/; Expires=/,
      );
    });

    it('pages with limit, offset and page; the count is of all matching entries', async () => {
      const ops = await operator();
      for (let i = 0; i < 3; i++) {
        await createCdn(ops.client);
      }
      const all = await logsOf(ops);
      expect(all).toHaveLength(3);
      const page = async (params: string) => {
        const res = await admin.get(`logs?username=${ops.username}&${params}`);
        expect((res.body as { summary: unknown }).summary).toEqual({ count: 3 });
        return responseOf<LogEntry[]>(res).map((e) => e.id);
      };
      expect(await page('limit=2')).toEqual([all[0].id, all[1].id]);
      expect(await page('limit=1&offset=1')).toEqual([all[1].id]);
      expect(await page('limit=2&page=2')).toEqual([all[2].id]);
      expect(await page('limit=-1')).toEqual(all.map((e) => e.id));
    });

    it('keeps to the last `days` days, 30 by default', async () => {
      const ops = await operator();
      await createCdn(ops.client);
      const old = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
      await dataSource.query('INSERT INTO log (level, message, tm_user, last_updated) VALUES (?, ?, ?, ?)', [
        'APICHANGE',
        'an old change',
        ops.id,
        old,
      ]);
      expect((await logsOf(ops)).map((e) => e.message)).not.toContain('an old change');
      expect((await logsOf(ops, '&days=39')).map((e) => e.message)).not.toContain('an old change');
      expect((await logsOf(ops, '&days=41')).map((e) => e.message)).toContain('an old change');
    });

    it('is not filtered by tenant, as in the original: a sub-tenant user reads every entry', async () => {
      const ops = await operator();
      await createCdn(ops.client);
      const tenant = await createTenant(admin);
      const inSubTenant = await createUser(app, admin, 'read-only', tenant.id);
      const res = await inSubTenant.client.get(`logs?username=${ops.username}`);
      expect(res.status).toBe(200);
      expect(responseOf<LogEntry[]>(res).map((e) => e.user)).toEqual([ops.username]);
    });

    it('answers If-Modified-Since: 304 when no entry was written since, the list otherwise', async () => {
      const ops = await operator();
      await createCdn(ops.client);
      const future = new Date(Date.now() + 86_400_000).toUTCString();
      const notModified = await admin.get('logs').set('If-Modified-Since', future);
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      const past = new Date(Date.now() - 86_400_000).toUTCString();
      const modified = await admin.get(`logs?username=${ops.username}`).set('If-Modified-Since', past);
      expect(modified.status).toBe(200);
      expect(responseOf<LogEntry[]>(modified)).toHaveLength(1);
      expect(modified.headers['last-modified']).toEqual(expect.any(String));
    });

    it('finds nothing for an unknown user', async () => {
      const res = await admin.get(`logs?username=${uniqueName('nobody')}`);
      expect(res.status).toBe(200);
      expect(responseOf(res)).toEqual([]);
      expect((res.body as { summary: unknown }).summary).toEqual({ count: 0 });
    });

    it.each([
      ['days=0', 'days parameter must be a positive integer'],
      ['days=abc', 'days parameter must be a positive integer'],
      ['days=1.5', 'days parameter must be a positive integer'],
      ['days=0000001', 'days parameter must be a positive integer'],
      ['days=0&limit=ten', 'limit parameter must be bigger than -1'],
      ...INVALID_PAGING,
    ])('rejects %s', async (params, text) => {
      expectError(await admin.get(`logs?${params}`), 400, text);
    });
  });

  describe('GET /logs/newcount', () => {
    it('counts the entries since the last read of the change log', async () => {
      const first = await admin.get('logs/newcount');
      expect(first.status).toBe(200);
      expect(responseOf(first)).toEqual({ newLogcount: 0 });
      const lastSeen = ([] as string[])
        .concat(first.headers['set-cookie'] ?? [])
        .find((c) => c.startsWith('last_seen_log='))!
        .split(';')[0];
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const ops = await operator();
      await createCdn(ops.client);
      const res = expectOk(await admin.get('logs/newcount').set('Cookie', `${admin.cookie}; ${lastSeen}`));
      // The new user and its CDN, at least (other suites do not run at the same time).
      expect(responseOf<{ newLogcount: number }>(res).newLogcount).toBe(2);
    });

    it('takes an unreadable cookie for none: 0, and a fresh cookie', async () => {
      const res = await admin.get('logs/newcount').set('Cookie', `${admin.cookie}; last_seen_log=not-a-date`);
      expect(res.status).toBe(200);
      expect(responseOf(res)).toEqual({ newLogcount: 0 });
      const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      expect(cookies.find((c) => c.startsWith('last_seen_log='))).toMatch(/^last_seen_log=\d{4}-/);
    });
  });
});
