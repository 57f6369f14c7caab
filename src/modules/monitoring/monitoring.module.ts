import { Module } from '@nestjs/common';
import { CachesStatsController, CdnMonitoringController } from './monitoring.controller';
import { MonitoringRepository } from './monitoring.repository';
import { MonitoringService } from './monitoring.service';
import { TrafficMonitorClient } from './traffic-monitor.client';

/** cdns/health, cdns/{name}/health, cdns/capacity, cdns/routing and caches/stats. */
@Module({
  controllers: [CdnMonitoringController, CachesStatsController],
  providers: [MonitoringService, MonitoringRepository, TrafficMonitorClient],
})
export class MonitoringModule {}
