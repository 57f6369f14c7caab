import { queryRunnerPrototypes } from 'src/common/database/typeorm-adapter';
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
  for (const { system, prototype } of queryRunnerPrototypes()) {
    instrument(prototype as { query: Query }, system);
  }
}
