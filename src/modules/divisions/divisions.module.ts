import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Division } from './division.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Division])],
})
export class DivisionsModule {}
