import { ConflictException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import {
  CERTIFICATION_RETRIES,
  isCertificationFailure,
  OUTSIDE_EFFECT_CONFLICT,
  withCertificationRetry,
} from 'src/common/database/certification-retry';
import { classifyDbError } from 'src/common/database/db-error';
import { appMetrics } from 'src/common/metrics/metrics';
import {
  inRequestTransaction,
  markOutsideEffect,
  RequestScopedDataSource,
} from 'src/common/database/request-transaction';

/** What mysql2 gives for a Galera certification failure (reported as a deadlock). */
/** db_transaction_retries_total per outcome so far. */
const retriesCounted = async (): Promise<Record<string, number>> =>
  Object.fromEntries(
    (await appMetrics().transactionRetries.get()).values.map((v) => [String(v.labels.outcome), v.value]),
  );

const certificationFailure = (): QueryFailedError =>
  new QueryFailedError('COMMIT', [], {
    code: 'ER_LOCK_DEADLOCK',
    errno: 1213,
    sqlMessage: 'Deadlock found when trying to get lock; try restarting transaction',
  } as unknown as Error);

describe('certification failures: the whole request transaction runs again', () => {
  let dataSource: RequestScopedDataSource;
  const delays: number[] = [];
  const options = {
    sleep: (ms: number) => {
      delays.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
  };
  const names = async (): Promise<string[]> =>
    (await dataSource.query<{ name: string }[]>('SELECT name FROM item ORDER BY name')).map((r) => r.name);

  beforeEach(async () => {
    delays.length = 0;
    appMetrics().transactionRetries.reset();
    dataSource = new RequestScopedDataSource({ type: 'better-sqlite3', database: ':memory:' });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE item (name TEXT PRIMARY KEY)');
  });

  afterEach(() => dataSource.destroy());

  it('recognises the deadlock error, which the exception filter answers as contention (503)', () => {
    expect(isCertificationFailure(certificationFailure())).toBe(true);
    expect(isCertificationFailure(new QueryFailedError('X', [], { errno: 1205 } as unknown as Error))).toBe(
      false,
    );
    expect(isCertificationFailure(new Error('other'))).toBe(false);
    expect(classifyDbError(certificationFailure())).toEqual({ kind: 'contention' });
  });

  it('rolls back each failed attempt and commits the one that succeeds, after growing random waits', async () => {
    let attempts = 0;
    const result = await withCertificationRetry(
      () =>
        inRequestTransaction(dataSource, async () => {
          attempts++;
          await dataSource.query('INSERT INTO item (name) VALUES (?)', [`attempt-${attempts}`]);
          if (attempts < 3) {
            throw certificationFailure();
          }
          return attempts;
        }),
      options,
    );
    expect(result).toBe(3);
    expect(await names()).toEqual(['attempt-3']);
    expect(delays).toEqual([13, 25]);
    expect(await retriesCounted()).toEqual({ retried: 2 });
  });

  it(`gives up after ${CERTIFICATION_RETRIES} retries with the failure itself (a 503, never a 500)`, async () => {
    let attempts = 0;
    const failing = withCertificationRetry(
      () =>
        inRequestTransaction(dataSource, () => {
          attempts++;
          return Promise.reject(certificationFailure());
        }),
      options,
    );
    await expect(failing).rejects.toBeInstanceOf(QueryFailedError);
    expect(attempts).toBe(CERTIFICATION_RETRIES + 1);
    expect(delays).toHaveLength(CERTIFICATION_RETRIES);
    expect(await retriesCounted()).toEqual({ retried: CERTIFICATION_RETRIES, gave_up: 1 });
  });

  it('does not run again a request that had an effect outside the database: 409 with an alert', async () => {
    let attempts = 0;
    const failing = withCertificationRetry(
      () =>
        inRequestTransaction(dataSource, async () => {
          attempts++;
          await dataSource.query('INSERT INTO item (name) VALUES (?)', ['mailed']);
          markOutsideEffect();
          throw certificationFailure();
        }),
      options,
    );
    await expect(failing).rejects.toEqual(new ConflictException(OUTSIDE_EFFECT_CONFLICT));
    expect(attempts).toBe(1);
    expect(await names()).toEqual([]);
    expect(await retriesCounted()).toEqual({ conflict: 1 });
  });

  it('passes other failures on at once', async () => {
    let attempts = 0;
    const failing = withCertificationRetry(() => {
      attempts++;
      return Promise.reject(new Error('not a conflict'));
    }, options);
    await expect(failing).rejects.toThrow('not a conflict');
    expect(attempts).toBe(1);
  });
});
