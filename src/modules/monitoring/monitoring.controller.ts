import { Controller, Get } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult } from 'src/common/http/alerts';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { type Monitored, MonitoringService } from './monitoring.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PathText } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

const answer = <T>({ data, warnings }: Monitored<T>): ApiResult<T> => ApiResult.of(data, ...warnings);

/**
 * The CDN figures read from Traffic Monitors and Traffic Routers (docs/original-behaviour.md#cdn-monitoring).
 * Always 200: without a monitor or router to read, the figures are zero or empty and a warning
 * alert says why (docs/decisions.md#d76).
 */
@Controller({ path: 'cdns', version: ALL_VERSIONS })
@ApiTags('cdn monitoring')
export class CdnMonitoringController {
  constructor(private readonly monitoring: MonitoringService) {}

  @Get('health')
  @ApiOperation({ summary: 'Show the online and offline edge caches of every CDN' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CACHE-GROUP:READ')
  async health() {
    return answer(await this.monitoring.health());
  }

  @Get('capacity')
  @ApiOperation({ summary: "Show the edge caches' bandwidth use as a share of their capacity" })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ')
  async capacity() {
    return answer(await this.monitoring.capacity());
  }

  @Get('routing')
  @ApiOperation({ summary: 'Show how the Traffic Routers routed requests' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ')
  async routing() {
    return answer(await this.monitoring.routing());
  }

  @Get(':name/health')
  @ApiOperation({ summary: 'Show the online and offline edge caches of a CDN' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ', 'CACHE-GROUP:READ')
  async cdnHealth(@ValidPath('name', PathText()) name: string) {
    return answer(await this.monitoring.health(name));
  }
}

@Controller({ path: 'caches', version: ALL_VERSIONS })
@ApiTags('cdn monitoring')
export class CachesStatsController {
  constructor(private readonly monitoring: MonitoringService) {}

  @Get('stats')
  @ApiOperation({ summary: 'List the health, bandwidth and connections of every cache' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CACHE-GROUP:READ', 'PROFILE:READ')
  async stats() {
    return answer(await this.monitoring.cachesStats());
  }
}
