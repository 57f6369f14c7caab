import { ConflictException } from '@nestjs/common';
import {
  inRequestTransaction,
  markOutsideEffect,
  RequestScopedDataSource,
} from 'src/common/database/request-transaction';
import { UnitOfWork } from 'src/common/database/unit-of-work';

/** MySQL's deadlock, which a Galera cluster also answers for a certification failure. */
const certificationFailure = () => Object.assign(new Error('Deadlock found'), { errno: 1213 });

describe('UnitOfWork (embedded SQLite)', () => {
  let dataSource: RequestScopedDataSource;
  let unitOfWork: UnitOfWork;
  let statements: string[];
  const names = async (): Promise<string[]> =>
    (await dataSource.query<{ name: string }[]>('SELECT name FROM item ORDER BY name')).map((r) => r.name);

  beforeEach(async () => {
    dataSource = new RequestScopedDataSource({ type: 'better-sqlite3', database: ':memory:' });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE item (name TEXT PRIMARY KEY)');
    unitOfWork = new UnitOfWork(dataSource);
    statements = [];
    const logQuery = dataSource.logger.logQuery.bind(dataSource.logger);
    dataSource.logger.logQuery = (query, parameters, runner) => {
      statements.push(query);
      logQuery(query, parameters, runner);
    };
  });

  afterEach(() => dataSource.destroy());

  it("joins the request's transaction without a statement of its own, and rolls back with it", async () => {
    await expect(
      inRequestTransaction(dataSource, async (runner) => {
        await unitOfWork.run(async (manager) => {
          expect(manager).toBe(runner.manager);
          await manager.query("INSERT INTO item (name) VALUES ('a')");
        });
        expect(unitOfWork.manager).toBe(runner.manager);
        throw new Error('the request failed');
      }),
    ).rejects.toThrow('the request failed');
    expect(statements.filter((sql) => /SAVEPOINT/i.test(sql))).toEqual([]);
    expect(await names()).toEqual([]);
  });

  it('opens a transaction of its own outside a request transaction, which a nested run joins', async () => {
    await unitOfWork.run(async (manager) => {
      await manager.query("INSERT INTO item (name) VALUES ('a')");
      await unitOfWork.run((inner) => {
        expect(inner).toBe(manager);
        return inner.query("INSERT INTO item (name) VALUES ('b')");
      });
    });
    expect(await names()).toEqual(['a', 'b']);
    expect(statements.filter((sql) => /BEGIN|COMMIT|SAVEPOINT/i.test(sql))).toEqual([
      'BEGIN TRANSACTION',
      'COMMIT',
    ]);
    expect(unitOfWork.manager).toBe(dataSource.manager);
  });

  it('rolls its own transaction back when the work fails', async () => {
    await expect(
      unitOfWork.run(async (manager) => {
        await manager.query("INSERT INTO item (name) VALUES ('a')");
        await manager.query("INSERT INTO item (name) VALUES ('a')");
      }),
    ).rejects.toThrow(/UNIQUE/);
    expect(await names()).toEqual([]);
  });

  it('runs its own transaction again after a certification failure, once committed', async () => {
    let attempts = 0;
    await unitOfWork.run(async (manager) => {
      attempts++;
      await manager.query("INSERT INTO item (name) VALUES ('a')");
      if (attempts === 1) {
        throw certificationFailure();
      }
    });
    expect(attempts).toBe(2);
    expect(await names()).toEqual(['a']);
  });

  it('never runs work again inside a request transaction: the request is retried whole', async () => {
    let attempts = 0;
    await expect(
      inRequestTransaction(dataSource, () =>
        unitOfWork.run(() => {
          attempts++;
          return Promise.reject(certificationFailure());
        }),
      ),
    ).rejects.toMatchObject({ errno: 1213 });
    expect(attempts).toBe(1);
  });

  it('answers a conflict instead of running again work that had an effect outside the database', async () => {
    let attempts = 0;
    await expect(
      unitOfWork.run(() => {
        attempts++;
        markOutsideEffect();
        return Promise.reject(certificationFailure());
      }),
    ).rejects.toBeInstanceOf(ConflictException);
    expect(attempts).toBe(1);
  });
});
