import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryServicesModule } from 'src/modules/delivery-services/delivery-services.module';
import { ServersModule } from 'src/modules/servers/servers.module';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { CachegroupAssignmentController } from './cachegroup-assignment.controller';
import {
  DeliveryServiceServerListsController,
  ServerDeliveryServicesController,
} from './delivery-service-server-relations.controller';
import { DeliveryServiceServer } from './delivery-service-server.entity';
import { DeliveryServiceServersController } from './delivery-service-servers.controller';
import { DeliveryServiceServersRepository } from './delivery-service-servers.repository';
import { DeliveryServiceServersService } from './delivery-service-servers.service';

/** Server ↔ delivery service assignments; and the cache-group bulk assignment. */
@Module({
  imports: [
    TypeOrmModule.forFeature([DeliveryServiceServer]),
    TenantsModule,
    ServersModule,
    DeliveryServicesModule,
  ],
  controllers: [
    DeliveryServiceServersController,
    DeliveryServiceServerListsController,
    ServerDeliveryServicesController,
    CachegroupAssignmentController,
  ],
  providers: [DeliveryServiceServersService, DeliveryServiceServersRepository],
  exports: [DeliveryServiceServersService],
})
export class DeliveryServiceServersModule {}
