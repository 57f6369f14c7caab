import { Module } from '@nestjs/common';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { DeliveryServiceCapacityController } from './delivery-service-capacity.controller';
import { CachesStatsController, CdnMonitoringController } from './monitoring.controller';
import { MonitoringRepository } from './monitoring.repository';
import { MonitoringService } from './monitoring.service';
import { TrafficMonitorClient } from './traffic-monitor.client';

/**
 * cdns/health, cdns/{name}/health, cdns/capacity, cdns/routing, caches/stats and
 * deliveryservices/{id}/capacity.
 */
@Module({
  imports: [TenantsModule],
  controllers: [CdnMonitoringController, CachesStatsController, DeliveryServiceCapacityController],
  providers: [MonitoringService, MonitoringRepository, TrafficMonitorClient],
})
export class MonitoringModule {}
