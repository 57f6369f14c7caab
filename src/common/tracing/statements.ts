import { BetterSqlite3QueryRunner } from 'typeorm/driver/better-sqlite3/BetterSqlite3QueryRunner';
import { MysqlQueryRunner } from 'typeorm/driver/mysql/MysqlQueryRunner';
import { traceStatement } from './tracing';

type Query = (this: unknown, sql: string, ...rest: unknown[]) => Promise<unknown>;

let instrumented = false;

function instrument(prototype: { query: Query }, system: string): void {
  const original = prototype.query;
  prototype.query = function (this: unknown, sql: string, ...rest: unknown[]): Promise<unknown> {
    return traceStatement(system, sql, () => original.call(this, sql, ...rest));
  };
}

/**
 * Every statement TypeORM's query runners send becomes a child span of the request's span
 * (src/common/tracing/tracing.ts). Installed once, when tracing starts: a process without tracing
 * keeps the runners untouched.
 */
export function traceDatabaseStatements(): void {
  if (instrumented) {
    return;
  }
  instrumented = true;
  instrument(MysqlQueryRunner.prototype as unknown as { query: Query }, 'mysql');
  instrument(BetterSqlite3QueryRunner.prototype as unknown as { query: Query }, 'sqlite');
}
