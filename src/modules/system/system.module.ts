import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Parameter } from 'src/modules/parameters/parameter.entity';
import { SystemController } from './system.controller';

@Module({
  imports: [TypeOrmModule.forFeature([Parameter])],
  controllers: [SystemController],
})
export class SystemModule {}
