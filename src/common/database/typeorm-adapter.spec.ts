import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  Column,
  DataSource,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  QueryFailedError,
  type DataSourceOptions,
} from 'typeorm';
import { insertRow, insertRowReturning, insertRows } from 'src/common/database/insert-rows';
import {
  getPlainMany,
  getPlainManyForIds,
  getPlainOne,
  plainKeys,
  rowsForIds,
} from 'src/common/database/plain-rows';
import { bigintAsNumber } from 'src/common/database/transformers';
import { queryRunnerPrototypes } from 'src/common/database/typeorm-adapter';

/**
 * The fast paths through the adapter (typeorm-adapter.ts), against a real database: the embedded
 * SQLite always, MySQL when TEST_DATABASE_URL names a server (in a database of its own, dropped
 * after). Each answer is compared with what TypeORM's own API answers for the same rows, so that the
 * same tests prove the adapter against another TypeORM release (`npm run test:typeorm-latest`).
 */
@Entity({ name: 'adapter_shelf' })
class Shelf {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 40 })
  label!: string;
}

@Entity({ name: 'adapter_gadget' })
class Gadget {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 40 })
  name!: string;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  size!: number;

  @Column({ type: 'boolean', default: true })
  shiny!: boolean;

  @Column({ type: 'datetime', name: 'made_at', nullable: true })
  madeAt!: Date | null;

  @Column({ name: 'shelf_id', type: 'int', nullable: true })
  shelfId!: number | null;

  @ManyToOne(() => Shelf, { nullable: true })
  @JoinColumn({ name: 'shelf_id' })
  shelf!: Shelf | null;
}

interface Target {
  name: string;
  options: () => Promise<DataSourceOptions>;
  drop?: () => Promise<void>;
}

const targets: Target[] = [
  {
    name: 'embedded SQLite',
    options: () => Promise.resolve({ type: 'better-sqlite3', database: ':memory:' }),
  },
];

const mysqlUrl = process.env.TEST_DATABASE_URL;
if (mysqlUrl) {
  const database = `adapter_unit_${process.pid}`;
  const server = new URL(mysqlUrl);
  server.pathname = '/';
  const admin = () => new DataSource({ type: 'mysql', url: server.toString() }).initialize();
  targets.push({
    name: 'MySQL',
    options: async () => {
      const ds = await admin();
      await ds.query(`CREATE DATABASE IF NOT EXISTS \`${database}\``);
      await ds.destroy();
      const url = new URL(server.toString());
      url.pathname = `/${database}`;
      return { type: 'mysql', url: url.toString(), timezone: 'Z' };
    },
    drop: async () => {
      const ds = await admin();
      await ds.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await ds.destroy();
    },
  });
}

describe('the TypeORM release under test', () => {
  // npm run test:typeorm-latest names the release it installed; these tests must then run on it.
  const underTest = process.env.TYPEORM_UNDER_TEST;
  it(`is ${underTest ?? 'the pinned one'}`, () => {
    const file = join(dirname(require.resolve('typeorm')), 'package.json');
    const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
    const manifest = join(__dirname, '..', '..', '..', 'package.json');
    const pinned = (JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies: Record<string, string> })
      .dependencies.typeorm;
    expect(version).toBe(underTest ?? pinned);
  });
});

describe.each(targets)('the database adapter on $name', (target) => {
  let dataSource: DataSource;
  const gadgets = () => dataSource.getRepository(Gadget);

  beforeAll(async () => {
    const options = await target.options();
    dataSource = await new DataSource({
      ...options,
      entities: [Shelf, Gadget],
      synchronize: true,
      dropSchema: true,
    }).initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await target.drop?.();
  });

  beforeEach(async () => {
    await dataSource.query('DELETE FROM adapter_gadget');
    await dataSource.query('DELETE FROM adapter_shelf');
  });

  const madeAt = new Date('2024-05-06T07:08:09.000Z');

  it('inserts several rows in one statement and reads them as TypeORM reads its entities', async () => {
    const shelf = await insertRow(dataSource.manager, Shelf, { label: 'top' });
    const statements: string[] = [];
    const logQuery = dataSource.logger.logQuery.bind(dataSource.logger);
    dataSource.logger.logQuery = (query, parameters, runner) => {
      statements.push(query);
      logQuery(query, parameters, runner);
    };
    try {
      await insertRows(dataSource.manager, Gadget, [
        { name: 'a', size: 2 ** 40, shiny: false, madeAt, shelfId: shelf },
        { name: 'b', size: 1, shiny: true, madeAt: null, shelfId: null },
      ]);
    } finally {
      dataSource.logger.logQuery = logQuery;
    }
    expect(statements).toEqual([expect.stringMatching(/^INSERT INTO/)]);

    const qb = gadgets()
      .createQueryBuilder('gadget')
      .leftJoinAndSelect('gadget.shelf', 'shelf')
      .orderBy('gadget.name', 'ASC');
    const plain = await getPlainMany(qb);
    const hydrated = await qb.getMany();
    expect(plain).toEqual(
      hydrated.map((entity) => ({ ...entity, shelf: entity.shelf && { ...entity.shelf } })),
    );
    expect(plain).toEqual([
      {
        id: expect.any(Number),
        name: 'a',
        size: 2 ** 40,
        shiny: false,
        madeAt,
        shelfId: shelf,
        shelf: { id: shelf, label: 'top' },
      },
      { id: expect.any(Number), name: 'b', size: 1, shiny: true, madeAt: null, shelfId: null, shelf: null },
    ]);
    expect(Object.getPrototypeOf(plain[0])).toBe(Object.prototype);
  });

  it('answers the generated id of one row, and the stored row with its defaults', async () => {
    const id = await insertRow(dataSource.manager, Gadget, { name: 'c', size: 3 });
    expect(await gadgets().findOneByOrFail({ id })).toMatchObject({ name: 'c', size: 3, shiny: true });
    const row = await insertRowReturning(dataSource.manager, Gadget, { name: 'd', size: 4, madeAt });
    expect(row).toEqual({ ...(await gadgets().findOneByOrFail({ id: row.id })) });
    expect(row).toMatchObject({ id: expect.any(Number), name: 'd', size: 4, shiny: true, madeAt });
  });

  it("reads a page's rows by id, the ids written into the statement", async () => {
    const ids = [
      await insertRow(dataSource.manager, Gadget, { name: 'e', size: 5 }),
      await insertRow(dataSource.manager, Gadget, { name: 'f', size: 6 }),
      await insertRow(dataSource.manager, Gadget, { name: 'g', size: 7 }),
    ];
    const raw = await rowsForIds<{ id: number; name: string }>(
      dataSource.manager,
      'SELECT id, name FROM adapter_gadget WHERE id IN (:ids) ORDER BY id',
      [ids[2], ids[0]],
    );
    expect(raw.map((row) => [Number(row.id), row.name])).toEqual([
      [ids[0], 'e'],
      [ids[2], 'g'],
    ]);
    const qb = gadgets()
      .createQueryBuilder('gadget')
      .where('gadget.id IN (:ids)')
      .orderBy('gadget.id', 'ASC');
    const plain = await getPlainManyForIds(dataSource.manager, qb, [ids[1], ids[2]]);
    expect(plain).toEqual(
      (await gadgets().findBy({ id: ids[1] }))
        .concat(await gadgets().findBy({ id: ids[2] }))
        .map((g) => ({ ...g })),
    );
    await expect(rowsForIds(dataSource.manager, 'SELECT 1 WHERE id IN (:ids)', [1.5])).rejects.toThrow(
      'rowsForIds: 1.5 is not an id',
    );
  });

  it("runs on a transaction's runner and sees its uncommitted rows", async () => {
    await dataSource.transaction(async (manager) => {
      const id = await insertRow(manager, Gadget, { name: 'h', size: 8 });
      const mine = await getPlainOne(
        manager.getRepository(Gadget).createQueryBuilder('gadget').where('gadget.id = :id', { id }),
      );
      expect(mine).toMatchObject({ id, name: 'h' });
    });
    expect(await gadgets().countBy({ name: 'h' })).toBe(1);
  });

  it('reports a failing statement as TypeORM does (on MySQL: a QueryFailedError with the driver error)', async () => {
    const qb = gadgets().createQueryBuilder('gadget').where('gadget.nothing = 1');
    // Compared by name and text: a native driver's errors come from another realm than jest's.
    const failure = (run: Promise<unknown>) =>
      run.then(
        () => undefined,
        (error: unknown) => error as Error,
      );
    const theirs = await failure(qb.getRawMany());
    const ours = await failure(getPlainMany(qb));
    expect(theirs).toBeDefined();
    expect([ours?.constructor.name, ours?.message]).toEqual([theirs?.constructor.name, theirs?.message]);
    if (dataSource.options.type === 'mysql') {
      expect(ours).toBeInstanceOf(QueryFailedError);
    }
    const values = { name: null as unknown as string, size: 1 };
    const refused: unknown = await gadgets()
      .insert(values)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(QueryFailedError);
    await expect(insertRow(dataSource.manager, Gadget, values)).rejects.toBeInstanceOf(QueryFailedError);
  });

  it('names the raw keys of a query builder as its raw rows hold them', async () => {
    await insertRow(dataSource.manager, Gadget, { name: 'i', size: 9 });
    const qb = gadgets().createQueryBuilder('gadget');
    const [raw] = await qb.getRawMany<Record<string, unknown>>();
    expect(
      plainKeys(qb)
        .map(({ key }) => key)
        .sort(),
    ).toEqual(Object.keys(raw).sort());
  });

  it('refuses the query shapes it cannot read whole', async () => {
    const partial = gadgets().createQueryBuilder('gadget').select(['gadget.id']);
    await expect(getPlainMany(partial)).rejects.toThrow(/selected in part/);
    const toMany = dataSource
      .getRepository(Shelf)
      .createQueryBuilder('shelf')
      .leftJoinAndMapMany('shelf.gadgets', Gadget, 'gadget', 'gadget.shelf_id = shelf.id');
    await expect(getPlainMany(toMany)).rejects.toThrow(/many-to-one joins/);
  });

  it('hands the query runner classes of both databases to the statement tracing', () => {
    const prototypes = queryRunnerPrototypes();
    expect(prototypes.map(({ system }) => system)).toEqual(['mysql', 'sqlite']);
    for (const { prototype } of prototypes) {
      expect(typeof (prototype as { query?: unknown }).query).toBe('function');
    }
    expect(
      prototypes.some(({ prototype }) => prototype === Object.getPrototypeOf(dataSource.createQueryRunner())),
    ).toBe(true);
  });
});
