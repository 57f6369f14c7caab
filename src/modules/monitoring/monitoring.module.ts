import { Module } from '@nestjs/common';
import { CachesStatsController, CdnMonitoringController } from './monitoring.controller';
import { MonitoringService } from './monitoring.service';
import { TrafficMonitorClient } from './traffic-monitor.client';

/** cdns/health, cdns/{name}/health, cdns/capacity, cdns/routing and caches/stats. */
@Module({
  controllers: [CdnMonitoringController, CachesStatsController],
  providers: [MonitoringService, TrafficMonitorClient],
})
export class MonitoringModule {}
