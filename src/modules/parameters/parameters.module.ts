import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Parameter } from './parameter.entity';
import { ParametersController } from './parameters.controller';
import { ParametersRepository } from './parameters.repository';
import { ParametersService } from './parameters.service';

@Module({
  imports: [TypeOrmModule.forFeature([Parameter])],
  controllers: [ParametersController],
  providers: [ParametersService, ParametersRepository],
  exports: [ParametersService],
})
export class ParametersModule {}
