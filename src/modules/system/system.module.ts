import { Module } from '@nestjs/common';
import { ParametersModule } from 'src/modules/parameters/parameters.module';
import { SystemController } from './system.controller';

@Module({
  imports: [ParametersModule],
  controllers: [SystemController],
})
export class SystemModule {}
