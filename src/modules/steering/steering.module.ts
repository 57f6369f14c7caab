import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { SteeringTarget } from './steering-target.entity';
import { SteeringTargetsController } from './steering-targets.controller';
import { SteeringTargetsService } from './steering-targets.service';
import { SteeringController } from './steering.controller';
import { SteeringRepository } from './steering.repository';
import { SteeringService } from './steering.service';

@Module({
  imports: [TypeOrmModule.forFeature([SteeringTarget]), TenantsModule],
  controllers: [SteeringController, SteeringTargetsController],
  providers: [SteeringService, SteeringTargetsService, SteeringRepository],
})
export class SteeringModule {}
