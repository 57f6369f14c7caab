import { DataSource } from 'typeorm';
import { responseOf } from 'test/e2e/support/api';
import { createCdn } from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import { runMigration } from 'test/e2e/support/migrations';
import { useApp } from 'test/e2e/support/suite';

const TIMES = ['configUpdateTime', 'configApplyTime', 'revalUpdateTime', 'revalApplyTime'] as const;
type Times = Record<(typeof TIMES)[number], string | undefined> & {
  updPending?: boolean;
  revalPending?: boolean;
};

/** A server's update and apply times are always there, as the original's NOT NULL epoch columns. */
describe('server update times', () => {
  const { app, admin } = useApp();

  const read = async (id: number, version: string): Promise<Times> =>
    responseOf<Times[]>(await admin.at(version).get(`servers?id=${id}`))[0];

  it.each(['4.0', '5.0'])('a new server has all four times, at the epoch, on %s', async (version) => {
    const server = await createServer(admin, (await createCdn(admin)).id);
    const times = await read(server.id, version);
    for (const key of TIMES) {
      expect(Date.parse(times[key] ?? 'missing')).toBe(0);
    }
  });

  it('nothing is pending for a new server, and queueing sets the update time only', async () => {
    const server = await createServer(admin, (await createCdn(admin)).id);
    expect(await read(server.id, '4.0')).toMatchObject({ updPending: false, revalPending: false });
    expect((await admin.post(`servers/${server.id}/queue_update`, { action: 'queue' })).status).toBe(200);
    const times = await read(server.id, '5.0');
    expect(Date.parse(times.configUpdateTime ?? 'missing')).toBeGreaterThan(0);
    expect(Date.parse(times.configApplyTime ?? 'missing')).toBe(0);
  });

  it('a migration gives servers made earlier the epoch', async () => {
    const server = await createServer(admin, (await createCdn(admin)).id);
    const dataSource = app.get(DataSource);
    await dataSource.query(
      'UPDATE server SET config_update_time = NULL, config_apply_time = NULL, revalidate_update_time = NULL, ' +
        'revalidate_apply_time = NULL WHERE id = ?',
      [server.id],
    );
    expect(await read(server.id, '5.0')).not.toHaveProperty('configApplyTime');
    await runMigration(dataSource, 'ServerUpdateTimesEpoch1764300000003');
    const times = await read(server.id, '5.0');
    for (const key of TIMES) {
      expect(Date.parse(times[key] ?? 'missing')).toBe(0);
    }
  });
});
