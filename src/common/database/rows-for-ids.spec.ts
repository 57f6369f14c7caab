import { DataSource } from 'typeorm';
import { rowsForIds } from 'src/common/database/plain-rows';

describe('rowsForIds (embedded SQLite)', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT)');
    await dataSource.query("INSERT INTO item (id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
  });

  afterAll(() => dataSource.destroy());

  const read = (ids: readonly number[]) =>
    rowsForIds<{ id: number; name: string }>(
      dataSource.manager,
      'SELECT id, name FROM item WHERE id IN (:ids) ORDER BY id',
      ids,
    );

  it('answers the rows of the ids, written into the statement', async () => {
    const statements: string[] = [];
    const logQuery = dataSource.logger.logQuery.bind(dataSource.logger);
    dataSource.logger.logQuery = (query, parameters, runner) => {
      statements.push(query);
      logQuery(query, parameters, runner);
    };
    expect(await read([3, 1])).toEqual([
      { id: 1, name: 'a' },
      { id: 3, name: 'c' },
    ]);
    expect(statements).toEqual(['SELECT id, name FROM item WHERE id IN (3, 1) ORDER BY id']);
  });

  it('runs nothing for no ids', async () => {
    expect(await read([])).toEqual([]);
  });

  it.each([[1.5], [NaN], [Infinity], [2 ** 53], ['1) OR (1=1' as unknown as number]])(
    'refuses %p, which is not an id',
    async (id) => {
      await expect(read([1, id])).rejects.toThrow(/is not an id/);
    },
  );

  it('refuses a statement without its id list', async () => {
    await expect(rowsForIds(dataSource.manager, 'SELECT id FROM item', [1])).rejects.toThrow(
      /has no IN \(:ids\)/,
    );
  });
});
