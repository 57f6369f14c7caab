import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PhysLocation } from './phys-location.entity';
import { PhysLocationsController } from './phys-locations.controller';
import { PhysLocationsRepository } from './phys-locations.repository';
import { PhysLocationsService } from './phys-locations.service';

@Module({
  imports: [TypeOrmModule.forFeature([PhysLocation])],
  controllers: [PhysLocationsController],
  providers: [PhysLocationsService, PhysLocationsRepository],
  exports: [PhysLocationsService],
})
export class PhysLocationsModule {}
