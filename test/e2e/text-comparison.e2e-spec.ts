import request from 'supertest';
import type { App } from 'supertest/types';
import { DataSource } from 'typeorm';
import { ApiClient, responseOf, uniqueName } from 'test/e2e/support/api';
import { useApp } from 'test/e2e/support/suite';

/**
 * Text that decides identity or uniqueness compares exactly on both databases: on MySQL/MariaDB a
 * PAD SPACE collation (utf8mb4_bin) would take `'name '` for `'name'`; every text column uses the
 * server's NO PAD binary collation instead, as SQLite's BINARY comparison already is.
 */
describe('exact text comparison', () => {
  const { app, admin } = useApp();

  const PASSWORDS = ['first-user-password-11', 'second-user-password-22'];

  it('keeps users whose names differ only by a trailing space apart, each with their own password', async () => {
    const name = uniqueName('pad', 40).toLowerCase();
    const ids: number[] = [];
    for (const [i, username] of [name, `${name} `].entries()) {
      const res = await admin.post('users', {
        username,
        localPasswd: PASSWORDS[i],
        confirmLocalPasswd: PASSWORDS[i],
        role: 'read-only',
        tenantId: 1,
        email: `${name}-${i}@example.com`,
        fullName: `Padded ${i}`,
      });
      expect(res.status).toBe(200);
      ids.push(responseOf<{ id: number }>(res).id);
    }
    expect(ids[0]).not.toBe(ids[1]);
    const server = app.getHttpServer() as App;
    const login = (u: string, p: string) => request(server).post('/api/4.0/user/login').send({ u, p });
    expect((await login(`${name} `, PASSWORDS[0])).status).toBe(401);
    expect((await login(name, PASSWORDS[1])).status).toBe(401);
    for (const [i, username] of [name, `${name} `].entries()) {
      const client = await ApiClient.login(app, username, PASSWORDS[i]);
      const current = responseOf<{ id: number; username: string }>(await client.get('user/current'));
      expect(current).toMatchObject({ id: ids[i], username });
    }
    const listed = responseOf<{ id: number }[]>(
      await admin.get(`users?username=${encodeURIComponent(name)}`),
    );
    expect(listed.map((u) => u.id)).toEqual([ids[0]]);
  });

  it('lets names that differ only by a trailing space coexist under a unique index', async () => {
    const name = uniqueName('division');
    const first = await admin.post('divisions', { name });
    const second = await admin.post('divisions', { name: `${name} ` });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(responseOf<{ name: string }>(second).name).toBe(`${name} `);
    const listed = responseOf<{ name: string }[]>(
      await admin.get(`divisions?name=${encodeURIComponent(name)}`),
    );
    expect(listed.map((d) => d.name)).toEqual([name]);
    // The unique index still refuses the exact same name.
    expect((await admin.post('divisions', { name: `${name} ` })).status).toBe(400);
  });

  it('uses no PAD SPACE collation for any text column on MySQL/MariaDB', async () => {
    const dataSource = app.get(DataSource);
    if (dataSource.options.type === 'better-sqlite3') {
      // SQLite compares text with BINARY (memcmp) unless a column says otherwise; none does.
      const columns = await dataSource.query<{ sql: string }[]>(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND sql LIKE '%COLLATE%'",
      );
      expect(columns).toEqual([]);
      return;
    }
    const [{ version }] = await dataSource.query<{ version: string }[]>('SELECT VERSION() AS version');
    const exact = /mariadb/i.test(version) ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin';
    const collations = await dataSource.query<{ collation: string; columns: number | string }[]>(
      'SELECT COLLATION_NAME AS collation, COUNT(*) AS columns FROM information_schema.COLUMNS ' +
        "WHERE TABLE_SCHEMA = DATABASE() AND COLLATION_NAME IS NOT NULL AND TABLE_NAME <> 'schema_migrations' " +
        'GROUP BY COLLATION_NAME',
    );
    expect(collations.map((c) => c.collation)).toEqual([exact]);
    const [{ padded }] = await dataSource.query<{ padded: number | string }[]>(
      "SELECT 'admin ' = username AS padded FROM tm_user WHERE username = 'admin'",
    );
    expect(Number(padded)).toBe(0);
  });
});
