import { outgoingTraceparent, withClientSpan } from 'src/common/tracing/tracing';
import { Inject, Injectable } from '@nestjs/common';
import { statsConfig, type StatsConfig } from 'src/config/stats.config';
import { type InfluxSeries, lastValues, statementResults } from './influxql';

/** Why a query to InfluxDB gave no figures, worded for the API's warning (no addresses, no secrets). */
export class StatsUnavailableError extends Error {}

/**
 * A minimal InfluxDB 1.x HTTP client: one POST /query carrying several `;`-separated statements,
 * bounded by the configured timeout. Traffic Stats writes two databases: the caches' (CDN figures,
 * read by current_stats and cache_stats) and the delivery services' (deliveryservice_stats).
 */
@Injectable()
export class InfluxDbClient {
  constructor(@Inject(statsConfig.KEY) private readonly config: StatsConfig) {}

  get configured(): boolean {
    return this.config.influxUrl !== undefined;
  }

  /** The caches' database (the original's `cache_stats`). */
  get database(): string {
    return this.config.database;
  }

  /** The delivery services' database (the original's `deliveryservice_stats`). */
  get dsDatabase(): string {
    return this.config.dsDatabase;
  }

  /** The `last` value of each statement (null where there is no data). */
  async lastValues(statements: string[]): Promise<(number | null)[]> {
    if (statements.length === 0) {
      return [];
    }
    const body = await this.request(this.config.database, statements);
    return this.parsed(() => lastValues(body, statements.length));
  }

  /**
   * The series each statement found, in statement order, their times in nanoseconds since the epoch
   * (as the original receives them). One request per statement, sent together: InfluxDB words the
   * failure of a statement in a batch only as `not executed`.
   */
  async series(database: string, statements: string[]): Promise<InfluxSeries[][]> {
    const bodies = await Promise.all(
      statements.map((statement) => this.request(database, [statement], 'ns')),
    );
    return this.parsed(() => bodies.map((body) => statementResults(body, 1)[0]));
  }

  private parsed<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      throw new StatsUnavailableError((error as Error).message);
    }
  }

  /**
   * The JSON answer to the statements (an HTTP request to InfluxDB; the module's SQL is in
   * stats.repository.ts); unreachable, timed out or not 2xx → StatsUnavailableError.
   */
  private async request(database: string, statements: string[], epoch?: 'ns'): Promise<unknown> {
    const form = new URLSearchParams({ db: database, q: statements.join(';\n') });
    if (epoch !== undefined) {
      form.set('epoch', epoch);
    }
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
    };
    if (this.config.user !== undefined) {
      const credentials = `${this.config.user}:${this.config.password ?? ''}`;
      headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
    return withClientSpan(
      `InfluxDB query ${database}`,
      { 'db.system.name': 'influxdb', 'db.namespace': database, 'server.address': this.config.influxUrl! },
      (span) => {
        if (span) {
          headers.traceparent = outgoingTraceparent(span);
        }
        return this.post(form, headers);
      },
    );
  }

  private async post(form: URLSearchParams, headers: Record<string, string>): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.config.influxUrl}/query`, {
        method: 'POST',
        headers,
        body: form,
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
    } catch (error) {
      throw this.unreachable(error);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (isTimeout(error)) {
        throw this.unreachable(error);
      }
      throw new StatsUnavailableError(`InfluxDB answered HTTP ${response.status} without JSON`);
    }
    if (!response.ok) {
      const text = (body as { error?: unknown } | null)?.error;
      throw new StatsUnavailableError(
        `InfluxDB answered HTTP ${response.status}${typeof text === 'string' ? `: ${text}` : ''}`,
      );
    }
    return body;
  }

  private unreachable(error: unknown): StatsUnavailableError {
    return isTimeout(error)
      ? new StatsUnavailableError(`InfluxDB did not answer within ${this.config.timeoutMs} ms`)
      : new StatsUnavailableError('InfluxDB could not be reached');
  }
}

/** By name: the DOMException fetch rejects with may come from another realm than `Error`. */
function isTimeout(error: unknown): boolean {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return name === 'TimeoutError' || name === 'AbortError';
}
