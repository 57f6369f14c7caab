import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PhysLocation } from './phys-location.entity';

@Module({
  imports: [TypeOrmModule.forFeature([PhysLocation])],
})
export class PhysLocationsModule {}
