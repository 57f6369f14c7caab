import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { insertRowReturning, insertRowThenRead } from 'src/common/database/insert-rows';
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

describe('insertRowReturning (embedded SQLite)', () => {
  let dataSource: DataSource;
  const stored = async (id: number): Promise<Widget> =>
    dataSource.getRepository(Widget).findOneByOrFail({ id });

  beforeEach(async () => {
    dataSource = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [Widget],
      synchronize: true,
    });
    await dataSource.initialize();
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
