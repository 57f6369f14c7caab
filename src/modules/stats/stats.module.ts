import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { statsConfig } from 'src/config/stats.config';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { CacheStatsController } from './cache-stats.controller';
import { CurrentStatsController } from './current-stats.controller';
import { CurrentStatsService } from './current-stats.service';
import { DeliveryServiceStatsController } from './deliveryservice-stats.controller';
import { InfluxDbClient } from './influxdb.client';
import { StatsSummaryController } from './stats-summary.controller';
import { StatsSummary } from './stats-summary.entity';
import { StatsSummaryService } from './stats-summary.service';
import { StatsRepository } from './stats.repository';
import { TrafficStatsService } from './traffic-stats.service';

@Module({
  imports: [ConfigModule.forFeature(statsConfig), TypeOrmModule.forFeature([StatsSummary]), TenantsModule],
  controllers: [
    CurrentStatsController,
    StatsSummaryController,
    CacheStatsController,
    DeliveryServiceStatsController,
  ],
  providers: [InfluxDbClient, CurrentStatsService, StatsSummaryService, TrafficStatsService, StatsRepository],
})
export class StatsModule {}
