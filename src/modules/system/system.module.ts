import { Module } from '@nestjs/common';
import { SystemRepository } from './system.repository';
import { ParametersModule } from 'src/modules/parameters/parameters.module';
import { SystemController } from './system.controller';

@Module({
  imports: [ParametersModule],
  controllers: [SystemController],
  providers: [SystemRepository],
})
export class SystemModule {}
