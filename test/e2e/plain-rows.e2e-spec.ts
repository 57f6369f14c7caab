import { DataSource, QueryFailedError, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import { insertRow, insertRows } from 'src/common/database/insert-rows';
import { getPlainMany, getPlainManyForIds, rowsForIds } from 'src/common/database/plain-rows';
import { Division } from 'src/modules/divisions/division.entity';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { IpAddress } from 'src/modules/servers/ip-address.entity';
import { ServerInterface } from 'src/modules/servers/server-interface.entity';
import { ServerProfile } from 'src/modules/servers/server-profile.entity';
import { Server } from 'src/modules/servers/server.entity';
import { createDeliveryService } from 'test/e2e/support/fixtures/delivery-services-api';
import { createCdn, createProfile } from 'test/e2e/support/fixtures/profiles';
import { createServer } from 'test/e2e/support/fixtures/servers';
import { useApp } from 'test/e2e/support/suite';

/**
 * Lists read into plain rows (docs/decisions.md#d106) answer exactly what TypeORM's entity hydration
 * answers for the same query, value for value and type for type, on the real schema: the list
 * responses built from them are therefore the same bytes.
 */
describe('plain rows (getPlainMany) against TypeORM entities', () => {
  const { app, admin } = useApp();
  let dataSource: DataSource;
  /** The servers this suite made through the API (others of the run's database may lack times). */
  let madeServerIds: number[];

  /** Values as they are, classes aside: Dates stay Dates (checked), so a string for a Date fails. */
  const plain = (value: unknown): unknown => {
    if (value instanceof Date) {
      return { date: value.toISOString() };
    }
    if (Array.isArray(value)) {
      return value.map(plain);
    }
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([, field]) => field !== undefined)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([key, field]) => [key, plain(field)]),
      );
    }
    return value;
  };

  const expectSameAsEntities = async <T extends ObjectLiteral>(
    qb: () => SelectQueryBuilder<T>,
  ): Promise<T[]> => {
    const entities = await qb().getMany();
    const rows = await getPlainMany(qb());
    expect(rows.length).toBeGreaterThan(0);
    expect(plain(rows)).toStrictEqual(plain(entities));
    return rows;
  };

  beforeAll(async () => {
    dataSource = app.get(DataSource);
    const cdn = await createCdn(admin);
    const profile = await createProfile(admin, cdn.id);
    // One delivery service with a profile and one without (a left join finding nothing).
    await createDeliveryService(admin, cdn.id, { profileId: profile.id });
    await createDeliveryService(admin, cdn.id);
    madeServerIds = [(await createServer(admin, cdn.id)).id, (await createServer(admin, cdn.id)).id];
  });

  it('delivery services with their type, CDN, profile (or null) and tenant', async () => {
    const rows = await expectSameAsEntities(() =>
      dataSource
        .getRepository(DeliveryService)
        .createQueryBuilder('ds')
        .innerJoinAndSelect('ds.type', 'type')
        .innerJoinAndSelect('ds.cdn', 'cdn')
        .leftJoinAndSelect('ds.profile', 'profile')
        .leftJoinAndSelect('ds.tenant', 'tenant')
        .orderBy('ds.id'),
    );
    expect(rows.some((ds) => ds.profile === null)).toBe(true);
    expect(rows.some((ds) => ds.profile !== null)).toBe(true);
    expect(rows[0].lastUpdated).toBeInstanceOf(Date);
    expect(typeof rows[0].ipv6RoutingEnabled).toBe('boolean');
  });

  it('servers with their names, profiles, interfaces and addresses', async () => {
    const servers = await expectSameAsEntities(() =>
      dataSource
        .createQueryBuilder(Server, 'server')
        .leftJoinAndSelect('server.cachegroup', 'cachegroup')
        .leftJoinAndSelect('server.cdn', 'cdn')
        .leftJoinAndSelect('server.physLocation', 'physLocation')
        .leftJoinAndSelect('server.status', 'status')
        .leftJoinAndSelect('server.type', 'type')
        .orderBy('server.id'),
    );
    const made = servers.filter((server) => madeServerIds.includes(server.id));
    expect(made).toHaveLength(2);
    for (const server of made) {
      expect(server.statusLastUpdated).toBeInstanceOf(Date);
    }
    await expectSameAsEntities(() =>
      dataSource
        .createQueryBuilder(ServerProfile, 'link')
        .innerJoinAndSelect('link.profile', 'profile')
        .orderBy('link.id'),
    );
    await expectSameAsEntities(() => dataSource.createQueryBuilder(ServerInterface, 'i').orderBy('i.id'));
    const addresses = await expectSameAsEntities(() =>
      dataSource.createQueryBuilder(IpAddress, 'ip').orderBy('ip.id'),
    );
    expect(typeof addresses[0].serviceAddress).toBe('boolean');
  });

  it('refuses query shapes it cannot map row for row', async () => {
    await expect(
      getPlainMany(
        dataSource.createQueryBuilder(Server, 'server').leftJoinAndSelect('server.interfaces', 'i'),
      ),
    ).rejects.toThrow("getPlainMany maps only selected many-to-one joins ('i')");
    await expect(
      getPlainMany(dataSource.createQueryBuilder(Server, 'server').select(['server.id', 'server.hostName'])),
    ).rejects.toThrow(
      "getPlainMany reads the main alias whole, and a join whole or with its primary key: 'server' is selected in part",
    );
    await expect(
      getPlainMany(
        dataSource.createQueryBuilder(Server, 'server').leftJoin('server.cdn', 'cdn').addSelect(['cdn.name']),
      ),
    ).rejects.toThrow(
      "getPlainMany reads the main alias whole, and a join whole or with its primary key: 'cdn' is selected in part",
    );
  });

  it('reads a join selected in part (its key and the columns named), or null when it finds nothing', async () => {
    const servers = await expectSameAsEntities(() => {
      const qb = dataSource.createQueryBuilder(Server, 'server').orderBy('server.id');
      for (const relation of ['cachegroup', 'cdn', 'physLocation', 'status', 'type']) {
        qb.leftJoin(`server.${relation}`, relation).addSelect([`${relation}.id`, `${relation}.name`]);
      }
      return qb;
    });
    const made = servers.filter((server) => madeServerIds.includes(server.id));
    expect(made).toHaveLength(2);
    for (const server of made) {
      expect(Object.keys(server.cdn!).sort()).toEqual(['id', 'name']);
      expect(typeof server.cdn!.name).toBe('string');
      expect(server.cachegroup!.id).toBe(server.cachegroupId);
    }
    const dses = await expectSameAsEntities(() =>
      dataSource
        .getRepository(DeliveryService)
        .createQueryBuilder('ds')
        .leftJoin('ds.profile', 'profile')
        .addSelect(['profile.id', 'profile.name', 'profile.description'])
        .orderBy('ds.id'),
    );
    expect(dses.some((ds) => ds.profile === null)).toBe(true);
    const withProfile = dses.find((ds) => ds.profile !== null)!;
    expect(Object.keys(withProfile.profile!).sort()).toEqual(['description', 'id', 'name']);
  });

  it("reads on the query builder's own connection (a transaction's) and gives every connection back", async () => {
    const name = `plain-rows-tx-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
    const named = (manager = dataSource.manager) =>
      getPlainMany(manager.createQueryBuilder(Division, 'd').where('d.name = :name', { name }));
    await expect(
      dataSource.transaction(async (manager) => {
        await insertRow(manager, Division, { name });
        // Only the transaction's own connection sees the row before the commit.
        expect((await named(manager)).map((d) => d.name)).toEqual([name]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await named()).toEqual([]);
    // More reads than the pool has connections, one after another: each gave its connection back.
    for (let i = 0; i < 25; i++) {
      expect(await named()).toEqual([]);
    }
  });

  it("reads a result with a column beyond the entities', and reports a failed statement as TypeORM does", async () => {
    const divisions = await dataSource.createQueryBuilder(Division, 'd').orderBy('d.id').getMany();
    const rows = await getPlainMany(
      dataSource.createQueryBuilder(Division, 'd').addSelect("'extra'", 'extra').orderBy('d.id'),
    );
    expect(plain(rows)).toStrictEqual(plain(divisions));
    // A failed statement is reported as TypeORM reports it (the exception filter maps that error).
    const failing = () => dataSource.createQueryBuilder(Division, 'd').where('d.no_such_column = 1');
    const expected = (await failing()
      .getRawMany()
      .catch((error: unknown) => error)) as Error;
    const actual = (await getPlainMany(failing()).catch((error: unknown) => error)) as Error;
    expect(expected.message).toMatch(/no_such_column/);
    expect(actual.constructor).toBe(expected.constructor);
    expect(actual.message).toBe(expected.message);
    expect((actual as QueryFailedError).driverError).toStrictEqual(
      (expected as QueryFailedError).driverError,
    );
  });

  it("reads a page's detail rows by id as the query builder's IN list reads them", async () => {
    const servers = await dataSource.createQueryBuilder(Server, 'server').orderBy('server.id').getMany();
    const ids = servers.map((server) => server.id);
    const byIds = await getPlainManyForIds(
      dataSource.manager,
      dataSource.createQueryBuilder(ServerInterface, 'i').where('i.server IN (:ids)').orderBy('i.id'),
      ids,
    );
    const bound = await dataSource
      .createQueryBuilder(ServerInterface, 'i')
      .where('i.server IN (:...ids)', { ids })
      .orderBy('i.id')
      .getMany();
    expect(byIds.length).toBeGreaterThan(0);
    expect(plain(byIds)).toStrictEqual(plain(bound));
    // One server's interfaces only: the ids are the statement's parameters, one each.
    const one = bound[0].serverId;
    const first = await rowsForIds<{ server: number | string }>(
      dataSource.manager,
      'SELECT t.server AS server FROM interface t WHERE t.server IN (:ids)',
      [one],
    );
    expect(first.map((row) => Number(row.server))).toStrictEqual(
      bound.filter((row) => row.serverId === one).map(() => one),
    );
    await expect(
      rowsForIds(dataSource.manager, 'SELECT 1 FROM interface t WHERE t.server IN (:ids)', []),
    ).resolves.toEqual([]);
  });

  it('refuses ids that are not integers and statements without their IN list', async () => {
    const sql = 'SELECT t.server FROM interface t WHERE t.server IN (:ids)';
    await expect(rowsForIds(dataSource.manager, sql, [1, '1) OR (1=1' as unknown as number])).rejects.toThrow(
      'rowsForIds: 1) OR (1=1 is not an id',
    );
    await expect(rowsForIds(dataSource.manager, sql, [1.5])).rejects.toThrow('rowsForIds: 1.5 is not an id');
    await expect(rowsForIds(dataSource.manager, 'SELECT 1 FROM interface', [1])).rejects.toThrow(
      'rowsForIds: the statement has no IN (:ids)',
    );
    await expect(
      getPlainManyForIds(
        dataSource.manager,
        dataSource
          .createQueryBuilder(ServerInterface, 'i')
          .where('i.server IN (:ids) AND i.name = :name', { name: 'eth0' }),
        [1],
      ),
    ).rejects.toThrow('getPlainManyForIds: the query may have no parameter but the ids');
  });

  it('inserts rows without reading them back, and answers a generated id', async () => {
    const suffix = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
    const id = await insertRow(dataSource.manager, Division, { name: `insert-row-${suffix}` });
    const stored = await dataSource.manager.findOneByOrFail(Division, { id });
    expect(stored.name).toBe(`insert-row-${suffix}`);
    expect(stored.lastUpdated).toBeInstanceOf(Date);
    const next = await insertRow(dataSource.manager, Division, { name: `insert-row-next-${suffix}` });
    expect(next).toBeGreaterThan(id);
    await insertRows(dataSource.manager, Division, [
      { name: `insert-rows-a-${suffix}` },
      { name: `insert-rows-b-${suffix}` },
    ]);
    await insertRows(dataSource.manager, Division, []);
    const names = (await dataSource.manager.find(Division))
      .map((d) => d.name)
      .filter((n) => n.endsWith(suffix));
    expect(names.sort()).toEqual(
      [
        `insert-row-${suffix}`,
        `insert-row-next-${suffix}`,
        `insert-rows-a-${suffix}`,
        `insert-rows-b-${suffix}`,
      ].sort(),
    );
    // The database's own errors come through unchanged (the services map them: docs/decisions.md#d30).
    await expect(insertRow(dataSource.manager, Division, { name: `insert-row-${suffix}` })).rejects.toThrow();
  });
});
