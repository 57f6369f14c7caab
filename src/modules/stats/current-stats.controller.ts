import { Controller, Get } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult } from 'src/common/http/alerts';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { CurrentStatsService } from './current-stats.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';

@Controller({ path: 'current_stats', version: ALL_VERSIONS })
@ApiTags('traffic stats')
export class CurrentStatsController {
  constructor(private readonly stats: CurrentStatsService) {}

  /** `{response: {currentStats}}`, and a `warning` alert when InfluxDB failed (docs/decisions.md#d16). */
  @Get()
  @ApiOperation({ summary: 'Show the current bandwidth and connections of every CDN' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ')
  async current() {
    const { stats, alerts } = await this.stats.current();
    return alerts.length > 0 ? ApiResult.of(stats, ...alerts) : stats;
  }
}
