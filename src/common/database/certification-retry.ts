import { ConflictException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { failedAfterOutsideEffect } from 'src/common/database/request-transaction';
import { appMetrics } from 'src/common/metrics/metrics';

/** How many times a request transaction is run again after a certification failure. */
export const CERTIFICATION_RETRIES = 3;
/** The first retry waits up to this long (a random part of it), each next one up to twice as long. */
const BASE_DELAY_MS = 25;

export const OUTSIDE_EFFECT_CONFLICT =
  'the request conflicted with a concurrent change on another database node and was rolled back; ' +
  'it was not run again because it had effects outside the database: check the result, then retry';

/**
 * Whether `error` is MySQL's deadlock (ER_LOCK_DEADLOCK, 1213): on a Galera cluster also what a
 * transaction gets when a conflicting one committed first on another node (a certification failure,
 * at commit or when a replicated write aborts it). The transaction was rolled back entirely.
 */
export function isCertificationFailure(error: unknown): boolean {
  const driver = (error instanceof QueryFailedError ? error.driverError : error) as
    { errno?: unknown; code?: unknown } | undefined;
  return driver?.errno === 1213 || driver?.code === 'ER_LOCK_DEADLOCK';
}

export interface RetryOptions {
  retries?: number;
  baseDelayMs?: number;
  /** Waits `ms` (tests: a clock of their own). */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) (tests). */
  random?: () => number;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` (one whole request transaction) and, when it ends in a certification failure or a
 * deadlock, runs it again, at most `retries` times, after a random wait that doubles each time (so
 * that the requests that collided do not collide again). A request whose work had an effect outside
 * the database is not run again: it answers 409 with an alert. When the retries run out the failure
 * goes on (the exception filter answers 503, "the database is busy"): never a 500.
 */
export async function withCertificationRetry<T>(
  attempt: () => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const retries = options.retries ?? CERTIFICATION_RETRIES;
  const baseDelayMs = options.baseDelayMs ?? BASE_DELAY_MS;
  const sleep = options.sleep ?? wait;
  const random = options.random ?? Math.random;
  for (let done = 0; ; done++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isCertificationFailure(error)) {
        throw error;
      }
      if (failedAfterOutsideEffect(error)) {
        appMetrics().transactionRetries.inc({ outcome: 'conflict' });
        throw new ConflictException(OUTSIDE_EFFECT_CONFLICT);
      }
      if (done >= retries) {
        appMetrics().transactionRetries.inc({ outcome: 'gave_up' });
        throw error;
      }
      appMetrics().transactionRetries.inc({ outcome: 'retried' });
      await sleep(Math.round(random() * baseDelayMs * 2 ** done));
    }
  }
}
