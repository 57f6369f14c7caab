import { DataSource } from 'typeorm';
import { expectSuccessAlert } from 'test/e2e/support/alerts';
import { responseOf } from 'test/e2e/support/api';
import { createCachegroup } from 'test/e2e/support/fixtures/cachegroups';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer, type ServerResponse } from 'test/e2e/support/fixtures/servers';
import type { ServerUpdateStatusV5 } from 'src/modules/servers/dto/server-update-status.response';
import { runMigration } from 'test/e2e/support/migrations';
import { useApp } from 'test/e2e/support/suite';

interface Times {
  configUpdateTime?: string;
  configApplyTime?: string;
  revalUpdateTime?: string;
  revalApplyTime?: string;
  updPending?: boolean;
  revalPending?: boolean;
}

/**
 * A server's update and apply times keep microseconds end to end, as the original's timestamptz
 * columns (D205): sent as t3c sends them (TestServersHostnameUpdate, TestCDNLocks), stored, answered
 * as Go writes them (RFC3339Nano, trailing zeros trimmed), and compared to the microsecond.
 */
describe('server update and apply times to the microsecond (D205)', () => {
  const { app, admin } = useApp();
  let mid: ServerResponse;
  let edge: ServerResponse;

  beforeAll(async () => {
    const cdn = await createCdn(admin);
    const profileName = (await createProfile(admin, cdn.id)).name;
    const midCg = await createCachegroup(admin, { typeName: 'MID_LOC' });
    const edgeCg = await createCachegroup(admin, { typeName: 'EDGE_LOC', parentCachegroupId: midCg.id });
    mid = await createServer(admin, cdn.id, { cachegroupId: midCg.id, typeName: 'MID', profileName });
    edge = await createServer(admin, cdn.id, { cachegroupId: edgeCg.id, typeName: 'EDGE', profileName });
  });

  const listed = async (server: ServerResponse, version: string): Promise<Times> =>
    responseOf<Times[]>(await admin.at(version).get(`servers?id=${server.id}`))[0];
  const status = async (server: ServerResponse, version = '4.0'): Promise<ServerUpdateStatusV5> =>
    responseOf<ServerUpdateStatusV5[]>(
      await admin.at(version).get(`servers/${server.hostName}/update_status`),
    )[0];
  const update = (target: string, query: string, version = '4.0') =>
    admin.at(version).post(`servers/${target}/update?${query}`);

  /** `time` (RFC 3339 with milliseconds or fewer digits) moved by `micros` microseconds, with six digits. */
  const shifted = (time: string, micros: number): string => {
    const total = Date.parse(time) * 1000 + micros;
    const ms = Math.floor(total / 1000);
    const iso = new Date(ms).toISOString();
    return `${iso.slice(0, 23)}${String(total - ms * 1000).padStart(3, '0')}Z`;
  };

  it.each(['4.0', '5.0'])(
    'an apply time sent with microseconds round-trips through update, servers and update_status on %s',
    async (version) => {
      const config = '2026-12-04T21:49:53.123456Z';
      const reval = '2026-12-04T21:49:54.00001Z';
      const res = await update(
        mid.hostName,
        `config_apply_time=${config}&revalidate_apply_time=${encodeURIComponent('2026-12-04T22:49:54.000010+01:00')}`,
        version,
      );
      expectSuccessAlert(
        res,
        `successfully set server '${mid.hostName}' config_apply_time=${config} revalidate_apply_time=2026-12-04T22:49:54.00001+01:00`,
      );
      expect(await listed(mid, version)).toMatchObject({ configApplyTime: config, revalApplyTime: reval });
      const read = await status(mid, version);
      expect([read.config_apply_time, read.revalidate_apply_time]).toEqual([config, reval]);
    },
  );

  it('the id form of the route keeps them too, and dequeueing copies the apply time to the microsecond', async () => {
    const applied = '2031-05-06T07:08:09.000007Z';
    expectSuccessAlert(
      await update(String(mid.id), `config_apply_time=${applied}`),
      `successfully set server '${mid.id}' config_apply_time=${applied}`,
    );
    expect((await admin.post(`servers/${mid.id}/queue_update`, { action: 'dequeue' })).status).toBe(200);
    expect(await listed(mid, '5.0')).toMatchObject({ configUpdateTime: applied, configApplyTime: applied });
    expect((await status(mid)).config_update_time).toBe(applied);
    // A PUT of the server leaves its times, and answers them to the microsecond.
    const [current] = responseOf<Times[]>(await admin.at('4.0').get(`servers?id=${mid.id}`));
    const res = await admin.at('4.0').put(`servers/${mid.id}`, current);
    expect(res.status).toBe(200);
    expect(responseOf<Times>(res)).toMatchObject({ configUpdateTime: applied, configApplyTime: applied });
  });

  it('pending flags compare to the microsecond: own and parent, updates and revalidations', async () => {
    expect((await update(mid.hostName, 'updated=true&reval_updated=true')).status).toBe(200);
    const queued = await listed(mid, '5.0');
    const [configQueued, revalQueued] = [queued.configUpdateTime!, queued.revalUpdateTime!];
    const flags = async () => {
      const own = await status(mid);
      const child = await status(edge);
      const row = await listed(mid, '4.0');
      return [
        own.upd_pending,
        own.reval_pending,
        child.parent_pending,
        child.parent_reval_pending,
        row.updPending,
        row.revalPending,
      ];
    };
    const apply = (micros: number) =>
      update(
        mid.hostName,
        `config_apply_time=${shifted(configQueued, micros)}&revalidate_apply_time=${shifted(revalQueued, micros)}`,
      );
    expect((await apply(-1)).status).toBe(200);
    expect(await flags()).toEqual([true, true, true, true, true, true]);
    expect((await apply(0)).status).toBe(200);
    expect(await flags()).toEqual([false, false, false, false, false, false]);
    expect((await apply(1)).status).toBe(200);
    expect(await flags()).toEqual([false, false, false, false, false, false]);
  });

  it('times the service sets itself (now) are written as Go writes them', async () => {
    expect((await admin.post(`servers/${edge.id}/queue_update`, { action: 'queue' })).status).toBe(200);
    const times = await listed(edge, '5.0');
    expect(times.configUpdateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{0,2}[1-9])?Z$/);
    expect(Math.abs(Date.parse(times.configUpdateTime!) - Date.now())).toBeLessThan(60_000);
    expect(times.configApplyTime).toBe('1970-01-01T00:00:00Z');
    expect((await admin.post(`servers/${edge.id}/queue_update`, { action: 'dequeue' })).status).toBe(200);
  });

  it('a migration gives the times stored with milliseconds six digits, and back', async () => {
    const dataSource = app.get(DataSource);
    const sqlite = dataSource.options.type === 'better-sqlite3';
    await dataSource.query('UPDATE server SET config_apply_time = ? WHERE id = ?', [
      sqlite ? '2030-01-02 03:04:05.678' : '2030-01-02 03:04:05.678000',
      edge.id,
    ]);
    const stored = async () =>
      String(
        (
          await dataSource.query<{ t: string }[]>(
            sqlite
              ? 'SELECT config_apply_time AS t FROM server WHERE id = ?'
              : "SELECT DATE_FORMAT(config_apply_time, '%Y-%m-%d %H:%i:%s.%f') AS t FROM server WHERE id = ?",
            [edge.id],
          )
        )[0].t,
      );
    await runMigration(dataSource, 'ServerTimesMicroseconds1764900000000');
    expect(await stored()).toBe('2030-01-02 03:04:05.678000');
    expect((await listed(edge, '5.0')).configApplyTime).toBe('2030-01-02T03:04:05.678Z');
    await runMigration(dataSource, 'ServerTimesMicroseconds1764900000000', 'down');
    expect(await stored()).toBe(sqlite ? '2030-01-02 03:04:05.678' : '2030-01-02 03:04:05.678000');
    await runMigration(dataSource, 'ServerTimesMicroseconds1764900000000');
  });
});
