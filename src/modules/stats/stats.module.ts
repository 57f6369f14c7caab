import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { statsConfig } from 'src/config/stats.config';
import { CurrentStatsController } from './current-stats.controller';
import { CurrentStatsService } from './current-stats.service';
import { InfluxDbClient } from './influxdb.client';
import { StatsSummaryController } from './stats-summary.controller';
import { StatsSummary } from './stats-summary.entity';
import { StatsSummaryService } from './stats-summary.service';

@Module({
  imports: [ConfigModule.forFeature(statsConfig), TypeOrmModule.forFeature([StatsSummary])],
  controllers: [CurrentStatsController, StatsSummaryController],
  providers: [InfluxDbClient, CurrentStatsService, StatsSummaryService],
})
export class StatsModule {}
