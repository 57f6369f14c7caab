import { Controller, Get, Headers, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult } from 'src/common/http/alerts';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { queryParams, TRAFFIC_STATS_QUERY, varyOnAccept } from './traffic-stats.params';
import { TrafficStatsService } from './traffic-stats.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidQuery } from 'src/common/request-input/request-input';

/** A CDN's figures over time from Traffic Stats (docs/original-behaviour.md#traffic-stats). */
@Controller({ path: 'cache_stats', version: ALL_VERSIONS })
@ApiTags('traffic stats')
export class CacheStatsController {
  constructor(private readonly stats: TrafficStatsService) {}

  /** `{response: {series?, summary?}}`, and a `warning` alert when InfluxDB gave nothing. */
  @Get()
  @ApiOperation({ summary: "Show a CDN's cache statistics over time" })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ')
  async get(
    @ValidQuery(TRAFFIC_STATS_QUERY) query: Record<string, string>,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { response, alerts } = await this.stats.cacheStats(queryParams(query), accept);
    varyOnAccept(res);
    return alerts.length > 0 ? ApiResult.of(response, ...alerts) : response;
  }
}
