import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { statsConfig } from 'src/config/stats.config';
import { CurrentStatsController } from './current-stats.controller';
import { CurrentStatsService } from './current-stats.service';
import { InfluxDbClient } from './influxdb.client';

@Module({
  imports: [ConfigModule.forFeature(statsConfig)],
  controllers: [CurrentStatsController],
  providers: [InfluxDbClient, CurrentStatsService],
})
export class StatsModule {}
