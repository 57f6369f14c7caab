import { Injectable, Logger } from '@nestjs/common';
import { type Alert, warningAlert } from 'src/common/http/alerts';
import { type CdnSamples, type CurrentStatsResponse, toCurrentStats } from './dto/current-stats.response';
import { InfluxDbClient, StatsUnavailableError } from './influxdb.client';
import { lastValueStatement } from './influxql';
import { StatsRepository } from './stats.repository';

/** The measurements Traffic Stats writes per CDN, in the order each CDN's statements are sent. */
const MEASUREMENTS = ['bandwidth.cdn.1min', 'connections.cdn.1min', 'maxkbps.cdn.1min'] as const;

export interface CurrentStats {
  stats: CurrentStatsResponse;
  alerts: Alert[];
}

/**
 * GET current_stats (docs/decisions.md#d16, docs/original-behaviour.md#current-stats): every CDN in the
 * database's order plus `total`. The figures come from InfluxDB in ONE request (three statements per
 * CDN); without InfluxDB they are null, and when a configured InfluxDB fails they are null with a
 * `warning` alert, never a 5xx.
 */
@Injectable()
export class CurrentStatsService {
  private readonly logger = new Logger(CurrentStatsService.name);

  constructor(
    private readonly repository: StatsRepository,
    private readonly influx: InfluxDbClient,
  ) {}

  async current(): Promise<CurrentStats> {
    const names = await this.repository.cdnNames();
    const empty = (cdn: string): CdnSamples => ({ cdn, kbps: null, connections: null, maxKbps: null });
    if (!this.influx.configured) {
      return { stats: toCurrentStats(names.map(empty)), alerts: [] };
    }
    const statements = names.flatMap((cdn) =>
      MEASUREMENTS.map((m) => lastValueStatement(this.influx.database, m, cdn)),
    );
    try {
      const values = await this.influx.lastValues(statements);
      const samples = names.map((cdn, i) => ({
        cdn,
        kbps: values[i * 3],
        connections: values[i * 3 + 1],
        maxKbps: values[i * 3 + 2],
      }));
      return { stats: toCurrentStats(samples), alerts: [] };
    } catch (error) {
      const reason = error instanceof StatsUnavailableError ? error.message : 'InfluxDB query failed';
      this.logger.warn(`current_stats without figures: ${(error as Error).message}`, (error as Error).cause);
      return {
        stats: toCurrentStats(names.map(empty)),
        alerts: [warningAlert(`current statistics are unavailable: ${reason}`)],
      };
    }
  }
}
