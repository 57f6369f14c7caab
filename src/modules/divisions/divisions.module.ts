import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Division } from './division.entity';
import { DivisionsController } from './divisions.controller';
import { DivisionsRepository } from './divisions.repository';
import { DivisionsService } from './divisions.service';

@Module({
  imports: [TypeOrmModule.forFeature([Division])],
  controllers: [DivisionsController],
  providers: [DivisionsService, DivisionsRepository],
  exports: [DivisionsService],
})
export class DivisionsModule {}
