import { DataSource } from 'typeorm';
import { responseOf, uniqueName } from 'test/e2e/support/api';
import { typeIdOf } from 'test/e2e/support/fixtures/cachegroups';
import { createSnapshotWorld, type SnapshotWorld } from 'test/e2e/support/fixtures/snapshots';
import { createPhysLocation } from 'test/e2e/support/fixtures/topology';
import { useApp } from 'test/e2e/support/suite';

interface Address {
  address: string;
  gateway: string | null;
  serviceAddress: boolean;
}
interface WithInterfaces {
  id: number;
  hostName: string;
  interfaces: { name: string; ipAddresses: Address[] }[];
}

/**
 * Server interfaces' addresses are stored and answered as the original's `inet` column answers them
 * (D131): IPv6 in RFC 5952 form, no `/32` or `/128`; in the servers' records, the CRConfig and the
 * monitoring document alike.
 */
describe('IP address forms', () => {
  const { app, admin } = useApp();
  let world: SnapshotWorld;
  let server: WithInterfaces;

  beforeAll(async () => {
    world = await createSnapshotWorld(app, admin);
    const statuses = responseOf<{ id: number }[]>(await admin.get('statuses?name=ONLINE'));
    const res = await admin.post('servers', {
      hostName: uniqueName('host'),
      domainName: 'example.net',
      cachegroupId: world.edgeGroup.id,
      cdnId: world.cdn.id,
      physLocationId: (await createPhysLocation(admin)).id,
      profileNames: [world.edgeProfile.name],
      statusId: statuses[0].id,
      typeId: await typeIdOf(admin, 'EDGE'),
      interfaces: [
        {
          name: 'eth0',
          monitor: true,
          mtu: 1500,
          ipAddresses: [
            { address: '192.0.2.7/32', gateway: '192.0.2.254', serviceAddress: true },
            { address: 'FD00:0000::0:1/64', gateway: 'fd00:0:0:0:0:0:0:FFFF', serviceAddress: true },
            { address: '2001:db8:0:0:1:0:0:1', gateway: null, serviceAddress: false },
          ],
        },
      ],
    });
    expect(res.status).toBe(200);
    server = responseOf<WithInterfaces>(res);
  });

  const expected: Address[] = [
    { address: '192.0.2.7', gateway: '192.0.2.254', serviceAddress: true },
    { address: 'fd00::1/64', gateway: 'fd00::ffff', serviceAddress: true },
    { address: '2001:db8::1:0:0:1', gateway: null, serviceAddress: false },
  ];

  it.each(['3.0', '4.0', '5.0'])(
    'answers the canonical forms in the server record on %s',
    async (version) => {
      const [read] = responseOf<WithInterfaces[]>(await admin.at(version).get(`servers?id=${server.id}`));
      expect(read.interfaces[0].ipAddresses).toEqual(expected);
    },
  );

  it('answers them in the creation response too', () => {
    expect(server.interfaces[0].ipAddresses).toEqual(expected);
  });

  it('answers them in the CRConfig and the monitoring document', async () => {
    const snapshot = responseOf<{ contentServers: Record<string, { ip: string; ip6: string }> }>(
      await admin.get(`cdns/${world.cdn.name}/snapshot/new`),
    );
    expect(snapshot.contentServers[server.hostName]).toMatchObject({ ip: '192.0.2.7', ip6: 'fd00::1/64' });
    const monitoring = responseOf<{
      trafficServers: { hostname: string; interfaces: { ipAddresses: Address[] }[] }[];
    }>(await admin.get(`cdns/${world.cdn.name}/configs/monitoring`));
    const cache = monitoring.trafficServers.find((s) => s.hostname === server.hostName);
    expect(cache?.interfaces[0].ipAddresses).toEqual(expected);
  });

  it('refuses the same address in two forms on one interface', async () => {
    const [read] = responseOf<Record<string, unknown>[]>(await admin.get(`servers?id=${server.id}`));
    const res = await admin.put(`servers/${server.id}`, {
      ...read,
      interfaces: [
        {
          name: 'eth0',
          monitor: true,
          mtu: 1500,
          ipAddresses: [
            { address: 'fd00::1/64', gateway: null, serviceAddress: true },
            { address: 'fd00:0::1/64', gateway: null, serviceAddress: false },
          ],
        },
      ],
    });
    expect(res.status).toBe(400);
    const [after] = responseOf<WithInterfaces[]>(await admin.get(`servers?id=${server.id}`));
    expect(after.interfaces[0].ipAddresses).toEqual(expected);
  });

  it('a migration brings earlier rows to the canonical forms', async () => {
    const dataSource = app.get(DataSource);
    const migration = dataSource.migrations.find(
      (m) => (m.name ?? m.constructor.name) === 'CanonicalIpAddresses1764300000002',
    );
    if (migration === undefined) {
      throw new Error('the migration CanonicalIpAddresses1764300000002 is not loaded');
    }
    await dataSource.query(
      'UPDATE ip_address SET address = ?, gateway = ? WHERE server = ? AND address = ?',
      ['FD00:0::0:1/64', 'fd00:0::FFFF', server.id, 'fd00::1/64'],
    );
    await dataSource.query('UPDATE ip_address SET address = ? WHERE server = ? AND address = ?', [
      '192.0.2.7/32',
      server.id,
      '192.0.2.7',
    ]);
    const runner = dataSource.createQueryRunner();
    try {
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const [read] = responseOf<WithInterfaces[]>(await admin.get(`servers?id=${server.id}`));
    expect(read.interfaces[0].ipAddresses).toEqual(expected);
  });
});
