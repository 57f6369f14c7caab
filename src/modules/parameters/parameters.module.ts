import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Parameter } from './parameter.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Parameter])],
})
export class ParametersModule {}
