import { Controller, Get, Headers, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult } from 'src/common/http/alerts';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { queryParams, TRAFFIC_STATS_QUERY, varyOnAccept } from './traffic-stats.params';
import { TrafficStatsService } from './traffic-stats.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidQuery } from 'src/common/request-input/request-input';

/**
 * A delivery service's figures over time from Traffic Stats, within the user's tenancy
 * (docs/original-behaviour.md#traffic-stats).
 */
@Controller({ path: 'deliveryservice_stats', version: ALL_VERSIONS })
@ApiTags('traffic stats')
export class DeliveryServiceStatsController {
  constructor(private readonly stats: TrafficStatsService) {}

  /** `{response: {series?, summary?}}`, and a `warning` alert when InfluxDB gave nothing. */
  @Get()
  @ApiOperation({ summary: "Show a delivery service's statistics over time" })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('STAT:READ', 'DELIVERY-SERVICE:READ')
  async get(
    @ValidQuery(TRAFFIC_STATS_QUERY) query: Record<string, string>,
    @Headers('accept') accept: string | undefined,
    @CurrentUser() user: CurrentUser,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { response, alerts } = await this.stats.deliveryServiceStats(queryParams(query), accept, user);
    varyOnAccept(res);
    return alerts.length > 0 ? ApiResult.of(response, ...alerts) : response;
  }
}
