import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Region } from './region.entity';
import { RegionsController } from './regions.controller';
import { RegionsRepository } from './regions.repository';
import { RegionsService } from './regions.service';

@Module({
  imports: [TypeOrmModule.forFeature([Region])],
  controllers: [RegionsController],
  providers: [RegionsService, RegionsRepository],
  exports: [RegionsService],
})
export class RegionsModule {}
