import { inRequestTransaction, RequestScopedDataSource } from 'src/common/database/request-transaction';

describe('request transactions (embedded SQLite)', () => {
  let dataSource: RequestScopedDataSource;
  const names = async (): Promise<string[]> =>
    (await dataSource.query<{ name: string }[]>('SELECT name FROM item ORDER BY name')).map((r) => r.name);
  const insert = (name: string): Promise<unknown> =>
    dataSource.query('INSERT INTO item (name) VALUES (?)', [name]);

  beforeEach(async () => {
    dataSource = new RequestScopedDataSource({ type: 'better-sqlite3', database: ':memory:' });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE item (name TEXT PRIMARY KEY)');
  });

  afterEach(() => dataSource.destroy());

  it('commits what the work wrote, through any API of the DataSource', async () => {
    await inRequestTransaction(dataSource, async () => {
      await insert('a');
      await dataSource.transaction((manager) => manager.query('INSERT INTO item (name) VALUES (?)', ['b']));
      await dataSource.createQueryBuilder().insert().into('item').values({ name: 'c' }).execute();
    });
    expect(await names()).toEqual(['a', 'b', 'c']);
  });

  it('rolls back everything, nested transactions included, when the work fails', async () => {
    await expect(
      inRequestTransaction(dataSource, async () => {
        await insert('a');
        await dataSource.transaction((manager) => manager.query('INSERT INTO item (name) VALUES (?)', ['b']));
        await insert('a');
      }),
    ).rejects.toThrow(/UNIQUE/);
    expect(await names()).toEqual([]);
  });

  it('runs concurrent requests one after the other, so one failing does not undo the other', async () => {
    const order: string[] = [];
    const slow = inRequestTransaction(dataSource, async () => {
      order.push('slow start');
      await insert('kept');
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('slow end');
    });
    const failing = inRequestTransaction(dataSource, async () => {
      order.push('failing start');
      await insert('dropped');
      throw new Error('refused');
    });
    await slow;
    await expect(failing).rejects.toThrow('refused');
    expect(order).toEqual(['slow start', 'slow end', 'failing start']);
    expect(await names()).toEqual(['kept']);
  });

  it('hands out ordinary query runners outside a request transaction', async () => {
    const runner = dataSource.createQueryRunner();
    expect(runner.isTransactionActive).toBe(false);
    await insert('outside');
    expect(await names()).toEqual(['outside']);
  });
});
