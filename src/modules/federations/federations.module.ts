import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { AllFederationsController } from './all-federations.controller';
import { AllFederationsService } from './all-federations.service';
import { CdnFederationsController } from './cdn-federations.controller';
import { CdnFederationsService } from './cdn-federations.service';
import { Federation } from './federation.entity';
import { FederationDeliveryService } from './federation-deliveryservice.entity';
import { FederationDeliveryServicesController } from './federation-deliveryservices.controller';
import { FederationDeliveryServicesService } from './federation-deliveryservices.service';
import { FederationFederationResolver } from './federation-federation-resolver.entity';
import { FederationResolver } from './federation-resolver.entity';
import {
  FederationFederationResolversController,
  FederationResolversController,
} from './federation-resolvers.controller';
import { FederationResolversService } from './federation-resolvers.service';
import { FederationUser } from './federation-tmuser.entity';
import { FederationUsersController } from './federation-users.controller';
import { FederationUsersService } from './federation-users.service';
import { FederationsController } from './federations.controller';
import { FederationsService } from './federations.service';

/**
 * Federations: by CDN, their users, delivery services and resolvers, and the signed-in user's
 * resolver mappings (`/federations`).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      Federation,
      FederationDeliveryService,
      FederationUser,
      FederationResolver,
      FederationFederationResolver,
    ]),
    TenantsModule,
  ],
  controllers: [
    AllFederationsController,
    FederationsController,
    CdnFederationsController,
    FederationUsersController,
    FederationDeliveryServicesController,
    FederationResolversController,
    FederationFederationResolversController,
  ],
  providers: [
    AllFederationsService,
    FederationsService,
    CdnFederationsService,
    FederationUsersService,
    FederationDeliveryServicesService,
    FederationResolversService,
  ],
})
export class FederationsModule {}
