import { Inject, Injectable } from '@nestjs/common';
import { statsConfig, type StatsConfig } from 'src/config/stats.config';
import { lastValues } from './influxql';

/** Why a query to InfluxDB gave no figures, worded for the API's warning (no addresses, no secrets). */
export class StatsUnavailableError extends Error {}

/**
 * A minimal InfluxDB 1.x HTTP client: one POST /query carrying several `;`-separated statements,
 * bounded by the configured timeout.
 */
@Injectable()
export class InfluxDbClient {
  constructor(@Inject(statsConfig.KEY) private readonly config: StatsConfig) {}

  get configured(): boolean {
    return this.config.influxUrl !== undefined;
  }

  get database(): string {
    return this.config.database;
  }

  /** The `last` value of each statement (null where there is no data). */
  async lastValues(statements: string[]): Promise<(number | null)[]> {
    if (statements.length === 0) {
      return [];
    }
    const form = new URLSearchParams({ db: this.config.database, q: statements.join(';\n') });
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json',
    };
    if (this.config.user !== undefined) {
      const credentials = `${this.config.user}:${this.config.password ?? ''}`;
      headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
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
    try {
      return lastValues(body, statements.length);
    } catch (error) {
      throw new StatsUnavailableError((error as Error).message);
    }
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
