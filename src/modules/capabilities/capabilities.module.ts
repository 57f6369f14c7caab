import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiCapabilitiesController, CapabilitiesController } from './capabilities.controller';
import { CapabilitiesRepository } from './capabilities.repository';
import { CapabilitiesService } from './capabilities.service';
import { ApiCapability, Capability } from './capability.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Capability, ApiCapability])],
  controllers: [CapabilitiesController, ApiCapabilitiesController],
  providers: [CapabilitiesService, CapabilitiesRepository],
})
export class CapabilitiesModule {}
