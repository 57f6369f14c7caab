import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { DeliveryServiceRequiredCapability } from './delivery-service-required-capability.entity';
import { RequiredCapabilitiesController } from './required-capabilities.controller';
import { RequiredCapabilitiesService } from './required-capabilities.service';
import { ServerCapabilitiesController } from './server-capabilities.controller';
import { ServerCapabilitiesRepository } from './server-capabilities.repository';
import { ServerCapabilitiesService } from './server-capabilities.service';
import { ServerCapability } from './server-capability.entity';
import {
  MultipleServersCapabilitiesController,
  ServerServerCapabilitiesController,
} from './server-server-capabilities.controller';
import { ServerServerCapabilitiesService } from './server-server-capabilities.service';
import { ServerServerCapability } from './server-server-capability.entity';

/**
 * Server capabilities, which servers have them and which delivery services require them; owns
 * `server_capability`, `server_server_capability` and `deliveryservices_required_capability`.
 * `RequiredCapabilitiesService` is exported for the delivery services' `requiredCapabilities`.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ServerCapability, ServerServerCapability, DeliveryServiceRequiredCapability]),
    TenantsModule,
  ],
  controllers: [
    ServerCapabilitiesController,
    ServerServerCapabilitiesController,
    MultipleServersCapabilitiesController,
    RequiredCapabilitiesController,
  ],
  providers: [
    ServerCapabilitiesRepository,
    ServerCapabilitiesService,
    ServerServerCapabilitiesService,
    RequiredCapabilitiesService,
  ],
  exports: [RequiredCapabilitiesService],
})
export class ServerCapabilitiesModule {}
