import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Coordinate } from './coordinate.entity';
import { CoordinatesController } from './coordinates.controller';
import { CoordinatesRepository } from './coordinates.repository';
import { CoordinatesService } from './coordinates.service';

@Module({
  imports: [TypeOrmModule.forFeature([Coordinate])],
  controllers: [CoordinatesController],
  providers: [CoordinatesService, CoordinatesRepository],
  exports: [CoordinatesService],
})
export class CoordinatesModule {}
