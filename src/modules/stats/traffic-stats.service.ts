import { BadRequestException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { type Alert, warningAlert } from 'src/common/http/alerts';
import type { CurrentUser } from 'src/common/types/current-user';
import { TenancyService } from 'src/modules/tenants/tenancy.service';
import {
  EMPTY_SUMMARY,
  toDsSummary,
  toTrafficStatsSeries,
  type TrafficDSStatsResponse,
  type TrafficStatsResponse,
} from './dto/traffic-stats.response';
import { InfluxDbClient, StatsUnavailableError } from './influxdb.client';
import {
  cdnSeriesStatement,
  cdnSummaryStatement,
  dsSeriesStatement,
  dsSummaryStatement,
  type InfluxSeries,
  readSeries,
  readSummary,
  type SeriesShape,
  type StatsSource,
} from './influxql';
import {
  parseTrafficStatsQuery,
  type QueryParams,
  requireParams,
  type TrafficStatsQuery,
} from './traffic-stats.params';
import { StatsRepository } from './stats.repository';

/** The metrics Traffic Stats keeps per CDN (measurements `<metric>.cdn.1min`). */
const CDN_METRICS: readonly string[] = ['maxkbps', 'connections', 'bandwidth'];
/** The original's default `supported_ds_metrics` (measurements `<metric>.ds.1min`). */
const DS_METRICS: readonly string[] = ['kbps', 'tps_total', 'tps_2xx', 'tps_3xx', 'tps_4xx', 'tps_5xx'];
const INT_MAX = 2147483647;

export interface StatsAnswer<T> {
  response: T;
  alerts: Alert[];
}

/**
 * GET cache_stats and GET deliveryservice_stats (docs/original-behaviour.md#traffic-stats): the
 * original's checks and texts, then its summary and series statements sent to InfluxDB. Without InfluxDB, or when it fails, the answer is 200 with neither part and a `warning`
 * alert, never a 5xx (docs/decisions.md#d16, docs/decisions.md#d107).
 */
@Injectable()
export class TrafficStatsService {
  private readonly logger = new Logger(TrafficStatsService.name);

  constructor(
    private readonly repository: StatsRepository,
    private readonly influx: InfluxDbClient,
    private readonly tenancy: TenancyService,
  ) {}

  async cacheStats(
    params: QueryParams,
    accept: string | undefined,
  ): Promise<StatsAnswer<TrafficStatsResponse>> {
    requireParams(params, ['metricType', 'startDate', 'endDate', 'cdnName']);
    const query = parseTrafficStatsQuery(params, accept);
    const metric = params.metricType;
    if (!CDN_METRICS.includes(metric)) {
      throw new BadRequestException(`Unknown metric type: ${metric}`);
    }
    const cdn = params.cdnName;
    if (!(await this.repository.cdnExists(cdn))) {
      throw new NotFoundException(`no such CDN: ${cdn}`);
    }
    const source = { database: this.influx.database, measurement: `${metric}.cdn.1min` };
    return this.fetch('cache', source, query, {
      summary: () => cdnSummaryStatement(source, cdn, query.start, query.end),
      series: (shape) => cdnSeriesStatement(source, cdn, query.start, query.end, shape),
      answer: (summary, series) => ({
        ...(series ? { series: toTrafficStatsSeries(series, query.unix) } : {}),
        ...(query.excludeSummary ? {} : { summary: readSummary(summary) ?? { ...EMPTY_SUMMARY } }),
      }),
    });
  }

  async deliveryServiceStats(
    params: QueryParams,
    accept: string | undefined,
    user: CurrentUser,
  ): Promise<StatsAnswer<TrafficDSStatsResponse>> {
    requireParams(params, ['metricType', 'startDate', 'endDate']);
    const query = parseTrafficStatsQuery(params, accept);
    const metric = params.metricType;
    if (!DS_METRICS.includes(metric)) {
      throw new BadRequestException(`Metric is not supported: ${metric}`);
    }
    const xmlId = await this.deliveryServiceNamed(params);
    const tenantId = await this.repository.deliveryServiceTenant(xmlId);
    // Out of reach is answered as absent, so that the name tells nothing (as the original does).
    if (tenantId === undefined || !(await this.tenancy.isWithinReach(user.tenantId, tenantId))) {
      throw new NotFoundException(`No such Delivery Service: ${xmlId}`);
    }
    const source = { database: this.influx.dsDatabase, measurement: `${metric}.ds.1min` };
    return this.fetch('delivery service', source, query, {
      summary: () => dsSummaryStatement(source, xmlId, query.start, query.end),
      series: (shape) => dsSeriesStatement(source, xmlId, query.start, query.end, shape),
      answer: (summary, series) => ({
        ...(series ? { series: toTrafficStatsSeries(series, query.unix) } : {}),
        ...(query.excludeSummary ? {} : { summary: toDsSummary(readSummary(summary), metric) }),
      }),
    });
  }

  /**
   * `deliveryServiceName`, else `deliveryService`: an id when it is a number naming a delivery
   * service, otherwise taken as an XML id (an XML id may be numeric).
   */
  private async deliveryServiceNamed(params: QueryParams): Promise<string> {
    const name = params.deliveryServiceName ?? params.deliveryService;
    if (name === undefined) {
      throw new BadRequestException('You must specify deliveryService or deliveryServiceName!');
    }
    if (params.deliveryServiceName === undefined && /^\d+$/.test(name) && Number(name) <= INT_MAX) {
      const xmlId = await this.repository.deliveryServiceXmlId(Number(name));
      if (xmlId !== undefined) {
        return xmlId;
      }
    }
    return name;
  }

  /** Sends the statements the request wants (summary first) and builds the answer. */
  private async fetch<T extends object>(
    what: string,
    source: StatsSource,
    query: TrafficStatsQuery,
    build: {
      summary: () => string;
      series: (shape: SeriesShape) => string;
      answer: (summary: InfluxSeries[], series: InfluxSeries | null) => T;
    },
  ): Promise<StatsAnswer<T>> {
    const unavailable = (reason: string): StatsAnswer<T> => ({
      response: {} as T,
      alerts: [warningAlert(`${what} statistics are unavailable: ${reason}`)],
    });
    if (!this.influx.configured) {
      return unavailable('InfluxDB is not configured');
    }
    const statements: string[] = [];
    if (!query.excludeSummary) {
      statements.push(build.summary());
    }
    if (!query.excludeSeries) {
      statements.push(
        build.series({
          interval: query.interval,
          offset: query.groupOffset,
          orderByTime: query.orderByTime,
          limit: query.limit,
          skip: query.offset,
        }),
      );
    }
    try {
      const results = await this.influx.series(source.database, statements);
      const summary = query.excludeSummary ? [] : results[0];
      const series = query.excludeSeries ? null : readSeries(results[results.length - 1]);
      return { response: build.answer(summary, series), alerts: [] };
    } catch (error) {
      const message = (error as Error).message;
      this.logger.warn(`${what} statistics without figures: ${message}`);
      return unavailable(error instanceof StatsUnavailableError ? message : `InfluxDB answered ${message}`);
    }
  }
}
