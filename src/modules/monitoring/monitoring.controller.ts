import { Controller, Get, Param } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult } from 'src/common/http/alerts';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { type Monitored, MonitoringService } from './monitoring.service';

const answer = <T>({ data, warnings }: Monitored<T>): ApiResult<T> => ApiResult.of(data, ...warnings);

/**
 * The CDN figures read from Traffic Monitors and Traffic Routers (docs/original-behaviour.md#cdn-monitoring).
 * Always 200: without a monitor or router to read, the figures are zero or empty and a warning
 * alert says why (docs/decisions.md#d76).
 */
@Controller({ path: 'cdns', version: ALL_VERSIONS })
export class CdnMonitoringController {
  constructor(private readonly monitoring: MonitoringService) {}

  @Get('health')
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CACHE-GROUP:READ')
  async health() {
    return answer(await this.monitoring.health());
  }

  @Get('capacity')
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ')
  async capacity() {
    return answer(await this.monitoring.capacity());
  }

  @Get('routing')
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ')
  async routing() {
    return answer(await this.monitoring.routing());
  }

  @Get(':name/health')
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ', 'CACHE-GROUP:READ')
  async cdnHealth(@Param('name') name: string) {
    return answer(await this.monitoring.health(name));
  }
}

@Controller({ path: 'caches', version: ALL_VERSIONS })
export class CachesStatsController {
  constructor(private readonly monitoring: MonitoringService) {}

  @Get('stats')
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CACHE-GROUP:READ', 'PROFILE:READ')
  async stats() {
    return answer(await this.monitoring.cachesStats());
  }
}
