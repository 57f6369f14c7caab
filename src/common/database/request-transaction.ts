import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, type EntityManager, type QueryRunner, type ReplicationMode } from 'typeorm';

/** The query runner of the write request being served, if any. */
const ambient = new AsyncLocalStorage<QueryRunner>();
/**
 * Request transactions in progress. While there are none the storage is disabled: on Node 20 an
 * enabled AsyncLocalStorage hooks every promise of the process, which read-only traffic should not
 * pay for (`run` enables it again).
 */
let inProgress = 0;
/** The request transactions whose work did something outside the database (markOutsideEffect). */
const withOutsideEffects = new WeakSet<QueryRunner>();
/** The errors that ended such a transaction. */
const afterOutsideEffects = new WeakSet<object>();

/**
 * Records that the request being served did something outside the database that a rollback does not
 * undo (sent mail, called another service): after a certification failure it is answered with an
 * alert instead of being run again (certification-retry.ts). Outside a request transaction, nothing.
 */
export function markOutsideEffect(): void {
  const runner = ambient.getStore();
  if (runner) {
    withOutsideEffects.add(runner);
  }
}

/** Whether `error` ended a request transaction after its work had an effect outside the database. */
export function failedAfterOutsideEffect(error: unknown): boolean {
  return typeof error === 'object' && error !== null && afterOutsideEffects.has(error);
}

/**
 * The application's DataSource. Inside `inRequestTransaction` every query runner it hands out is
 * the request's own, so repositories, query builders, `dataSource.query` and
 * `dataSource.transaction` (which nests as a savepoint) all take part in the request's transaction
 * without the services passing a manager around. Outside one it behaves as TypeORM's.
 */
export class RequestScopedDataSource extends DataSource {
  override createQueryRunner(mode: ReplicationMode = 'master'): QueryRunner {
    return ambient.getStore() ?? super.createQueryRunner(mode);
  }
}

/**
 * SQLite has one connection per DataSource, so two transactions open at once would nest in each
 * other. The embedded database therefore takes write requests one at a time, per process (two app
 * instances in one test process share the file as well as this queue).
 */
let sqliteQueue: Promise<unknown> = Promise.resolve();

function serialized<T>(work: () => Promise<T>): Promise<T> {
  const turn = sqliteQueue.then(work, work);
  sqliteQueue = turn.catch(() => undefined);
  return turn;
}

/**
 * Runs `work` as one transaction on a runner of its own, made the ambient runner of everything the
 * work calls: committed when it resolves, rolled back when it throws.
 */
export function inRequestTransaction<T>(
  dataSource: DataSource,
  work: (runner: QueryRunner) => Promise<T>,
): Promise<T> {
  const run = async (): Promise<T> => {
    const runner = dataSource.createQueryRunner('master');
    // Callers of createQueryRunner release what they were given; the request's runner is
    // released here, once, when the transaction is over.
    const release = runner.release.bind(runner);
    runner.release = () => Promise.resolve();
    try {
      await runner.connect();
      await runner.startTransaction();
      inProgress++;
      try {
        const result = await ambient.run(runner, () => work(runner));
        await runner.commitTransaction();
        return result;
      } catch (error) {
        if (runner.isTransactionActive) {
          await runner.rollbackTransaction().catch(() => undefined);
        }
        if (withOutsideEffects.has(runner) && typeof error === 'object' && error !== null) {
          afterOutsideEffects.add(error);
        }
        throw error;
      } finally {
        if (--inProgress === 0) {
          ambient.disable();
        }
      }
    } finally {
      runner.release = release;
      await release();
    }
  };
  return dataSource.options.type === 'better-sqlite3' ? serialized(run) : run();
}

/** The manager of the request transaction in progress, if any (UnitOfWork joins it). */
export function requestTransactionManager(): EntityManager | undefined {
  return ambient.getStore()?.manager;
}
