import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { withCertificationRetry } from 'src/common/database/certification-retry';
import { inRequestTransaction, requestTransactionManager } from 'src/common/database/request-transaction';

/**
 * The entity manager of a unit of work: what a module's repository (`<name>.repository.ts`) runs its
 * statements on, and what a service hands to another module's service so that both write in one
 * transaction (docs/architecture.md#data-access). Services name it by this type, without importing
 * TypeORM.
 */
export type TransactionManager = EntityManager;

/**
 * The one way a module makes several statements atomic (docs/architecture.md#data-access):
 * `unitOfWork.run((manager) => …)`.
 *
 * - In a signed-in write request, the request transaction (RequestTransactionInterceptor) is already
 *   open: `run` joins it, at no cost (no savepoint). A failure rolls the whole request back, and a
 *   certification failure runs the whole request again (certification-retry.ts), so the work is
 *   never retried on its own inside a transaction that is going to be rolled back.
 * - Anywhere else (a read or public request, the command line, work started by a timer), `run` opens
 *   a transaction of its own for the work, made the ambient one for everything it calls (so a nested
 *   `run` joins it), and runs it again after a certification failure as the interceptor runs a
 *   request, unless the work had an effect outside the database (markOutsideEffect).
 */
@Injectable()
export class UnitOfWork {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  run<T>(work: (manager: TransactionManager) => Promise<T>): Promise<T> {
    const joined = requestTransactionManager();
    if (joined) {
      return work(joined);
    }
    return withCertificationRetry(() =>
      inRequestTransaction(this.dataSource, (runner) => work(runner.manager)),
    );
  }

  /**
   * The manager for work that needs no transaction of its own (one statement, or reads): the request
   * transaction's when one is open, the data source's otherwise.
   */
  get manager(): TransactionManager {
    return requestTransactionManager() ?? this.dataSource.manager;
  }
}
