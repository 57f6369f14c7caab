import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { AllFederationsController } from './all/all-federations.controller';
import { AllFederationsRepository } from './all/all-federations.repository';
import { AllFederationsService } from './all/all-federations.service';
import { CdnFederationsController } from './cdn-federations/cdn-federations.controller';
import { CdnFederationsRepository } from './cdn-federations/cdn-federations.repository';
import { CdnFederationsService } from './cdn-federations/cdn-federations.service';
import { Federation } from './federation.entity';
import { FederationDeliveryService } from './delivery-services/federation-deliveryservice.entity';
import { FederationDeliveryServicesController } from './delivery-services/federation-deliveryservices.controller';
import { FederationDeliveryServicesRepository } from './delivery-services/federation-deliveryservices.repository';
import { FederationDeliveryServicesService } from './delivery-services/federation-deliveryservices.service';
import { FederationFederationResolver } from './resolvers/federation-federation-resolver.entity';
import { FederationResolver } from './resolvers/federation-resolver.entity';
import {
  FederationFederationResolversController,
  FederationResolversController,
} from './resolvers/federation-resolvers.controller';
import { FederationResolversRepository } from './resolvers/federation-resolvers.repository';
import { FederationResolversService } from './resolvers/federation-resolvers.service';
import { FederationUser } from './users/federation-tmuser.entity';
import { FederationUsersController } from './users/federation-users.controller';
import { FederationUsersRepository } from './users/federation-users.repository';
import { FederationUsersService } from './users/federation-users.service';
import { FederationsController } from './mappings/federations.controller';
import { FederationsService } from './mappings/federations.service';
import { ResolverMappingsRepository } from './mappings/resolver-mappings.repository';
import { FederationsRepository } from './federations.repository';

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
    FederationsRepository,
    AllFederationsRepository,
    ResolverMappingsRepository,
    CdnFederationsRepository,
    FederationUsersRepository,
    FederationDeliveryServicesRepository,
    FederationResolversRepository,
  ],
})
export class FederationsModule {}
