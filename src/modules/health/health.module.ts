import { Module } from '@nestjs/common';
import { HealthRepository } from './health.repository';
import { HealthController } from './health.controller';
import { PingController } from './ping.controller';

@Module({
  controllers: [PingController, HealthController],
  providers: [HealthRepository],
})
export class HealthModule {}
