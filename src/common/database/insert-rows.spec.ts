import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import {
  checkInsertStatements,
  insertRow,
  insertRowReturning,
  insertRowThenRead,
  insertRows,
} from 'src/common/database/insert-rows';
import { bigintAsNumber } from 'src/common/database/transformers';

@Entity({ name: 'widget' })
class Widget {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  size!: number;

  @Column({ type: 'boolean', default: true })
  shiny!: boolean;

  @Column({ name: 'last_updated', type: 'datetime', default: () => 'CURRENT_TIMESTAMP' })
  lastUpdated!: Date;
}

/** An in-memory database with the widget table. */
const widgets = (): Promise<DataSource> =>
  new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities: [Widget],
    synchronize: true,
  }).initialize();

describe('insertRowReturning (embedded SQLite)', () => {
  let dataSource: DataSource;
  const stored = async (id: number): Promise<Widget> =>
    dataSource.getRepository(Widget).findOneByOrFail({ id });

  beforeEach(async () => {
    dataSource = await widgets();
  });

  afterEach(() => dataSource.destroy());

  it('answers the new row as stored, database defaults and converted values included, in one statement', async () => {
    const statements: string[] = [];
    const logQuery = dataSource.logger.logQuery.bind(dataSource.logger);
    dataSource.logger.logQuery = (query, parameters, runner) => {
      statements.push(query);
      logQuery(query, parameters, runner);
    };
    const row = await insertRowReturning(dataSource.manager, Widget, { size: 42 });
    expect(statements).toEqual([expect.stringMatching(/^INSERT INTO .* RETURNING /)]);
    expect(row).toEqual({ ...(await stored(row.id)) });
    expect(row).toMatchObject({ size: 42, shiny: true, lastUpdated: expect.any(Date) });
  });

  it('answers the same without RETURNING: the INSERT, then the row by its id', async () => {
    const first = await insertRowReturning(dataSource.manager, Widget, { size: 1 });
    const second = await insertRowThenRead(dataSource.manager, Widget, { size: 2, shiny: false });
    expect(second).toEqual({ ...(await stored(second.id)) });
    expect(second).toMatchObject({ id: first.id + 1, size: 2, shiny: false });
    expect(Object.keys(second)).toEqual(Object.keys(first));
  });
});

describe('the INSERT statement cache (embedded SQLite)', () => {
  let dataSource: DataSource;
  let built: number;
  const stored = (id: number): Promise<Widget> => dataSource.getRepository(Widget).findOneByOrFail({ id });

  beforeEach(async () => {
    dataSource = await widgets();
    // Every INSERT TypeORM builds starts with a query builder of the manager.
    built = 0;
    const createQueryBuilder = dataSource.manager.createQueryBuilder.bind(dataSource.manager);
    jest.spyOn(dataSource.manager, 'createQueryBuilder').mockImplementation(((...args: never[]) => {
      built++;
      return createQueryBuilder(...args);
    }) as typeof dataSource.manager.createQueryBuilder);
  });

  afterEach(async () => {
    checkInsertStatements(false);
    await dataSource.destroy();
  });

  it('builds each shape of row once, and writes every later row of it with its own converted values', async () => {
    const ids = [
      await insertRow(dataSource.manager, Widget, { size: 1, shiny: false }),
      await insertRow(dataSource.manager, Widget, { size: 2, shiny: true }),
      await insertRow(dataSource.manager, Widget, { size: 3, shiny: false }),
    ];
    expect(built).toBe(1);
    expect(await Promise.all(ids.map(stored))).toMatchObject([
      { size: 1, shiny: false },
      { size: 2, shiny: true },
      { size: 3, shiny: false },
    ]);
  });

  it('keeps a statement per shape: a column left out is written as its default', async () => {
    const given = await insertRow(dataSource.manager, Widget, { size: 1, shiny: false });
    const defaulted = await insertRow(dataSource.manager, Widget, { size: 2 });
    await insertRow(dataSource.manager, Widget, { size: 3 });
    await insertRows(dataSource.manager, Widget, [{ size: 4 }, { size: 5, shiny: false }]);
    await insertRows(dataSource.manager, Widget, [{ size: 6 }, { size: 7, shiny: false }]);
    expect(built).toBe(3);
    expect(await stored(given)).toMatchObject({ size: 1, shiny: false });
    expect(await stored(defaulted)).toMatchObject({ size: 2, shiny: true });
    const all = await dataSource.getRepository(Widget).find({ order: { id: 'ASC' } });
    expect(all.map(({ size, shiny }) => [size, shiny])).toEqual([
      [1, false],
      [2, true],
      [3, true],
      [4, true],
      [5, false],
      [6, true],
      [7, false],
    ]);
  });

  it('answers rows read back by RETURNING from the cached statement as from the first', async () => {
    const first = await insertRowReturning(dataSource.manager, Widget, { size: 10 });
    const second = await insertRowReturning(dataSource.manager, Widget, { size: 11 });
    expect(second).toEqual({ ...(await stored(second.id)) });
    expect(second).toMatchObject({ id: first.id + 1, size: 11, shiny: true });
  });

  it('never caches a raw SQL value', async () => {
    const first = await insertRow(dataSource.manager, Widget, { size: () => '6 * 7' });
    const second = await insertRow(dataSource.manager, Widget, { size: () => '6 * 8' });
    expect(built).toBe(2);
    expect(await stored(first)).toMatchObject({ size: 42 });
    expect(await stored(second)).toMatchObject({ size: 48 });
  });

  it("under the tests' check, fails a cached statement that TypeORM would build otherwise", async () => {
    checkInsertStatements(true);
    await insertRow(dataSource.manager, Widget, { size: 1 });
    await insertRow(dataSource.manager, Widget, { size: 2 });
    const metadata = dataSource.getMetadata(Widget);
    const tablePath = metadata.tablePath;
    metadata.tablePath = 'gadget';
    try {
      await expect(insertRow(dataSource.manager, Widget, { size: 3 })).rejects.toThrow(
        /insert statement cache: Widget .* differs from what TypeORM builds/,
      );
    } finally {
      metadata.tablePath = tablePath;
    }
    expect(await dataSource.getRepository(Widget).count()).toBe(2);
  });
});
