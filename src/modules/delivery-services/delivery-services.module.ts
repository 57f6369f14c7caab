import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ServerCapabilitiesModule } from 'src/modules/server-capabilities/server-capabilities.module';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { TopologiesModule } from 'src/modules/topologies/topologies.module';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { ParametersModule } from 'src/modules/parameters/parameters.module';
import { ConsistentHashQueryParam } from './core/consistent-hash-query-param.entity';
import { DeliveryServiceRegex } from './regexes/delivery-service-regex.entity';
import {
  DeliveryServiceRegexesController,
  DeliveryServicesRegexesController,
} from './regexes/delivery-service-regexes.controller';
import { DeliveryServiceRegexesRepository } from './regexes/delivery-service-regexes.repository';
import { DeliveryServiceRegexesService } from './regexes/delivery-service-regexes.service';
import { DeliveryServiceSafeController } from './safe/delivery-service-safe.controller';
import { DeliveryServiceTlsVersion } from './core/delivery-service-tls-version.entity';
import { DeliveryService } from './delivery-service.entity';
import {
  DeliveryServiceByIdController,
  DeliveryServicesController,
} from './core/delivery-services.controller';
import { DeliveryServicesRepository } from './core/delivery-services.repository';
import { DeliveryServicesService } from './core/delivery-services.service';
import { Origin } from './origins/origin.entity';
import { OriginsController } from './origins/origins.controller';
import { OriginsRepository } from './origins/origins.repository';
import { OriginsService } from './origins/origins.service';
import { Regex } from './regexes/regex.entity';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      DeliveryService,
      DeliveryServiceTlsVersion,
      ConsistentHashQueryParam,
      Regex,
      DeliveryServiceRegex,
      Origin,
    ]),
    TenantsModule,
    TopologiesModule,
    ServerCapabilitiesModule,
    CdnLocksModule,
    ParametersModule,
  ],
  controllers: [
    DeliveryServiceSafeController,
    DeliveryServicesController,
    DeliveryServiceByIdController,
    DeliveryServicesRegexesController,
    DeliveryServiceRegexesController,
    OriginsController,
  ],
  providers: [
    DeliveryServicesRepository,
    DeliveryServicesService,
    DeliveryServiceRegexesRepository,
    DeliveryServiceRegexesService,
    OriginsRepository,
    OriginsService,
  ],
  exports: [DeliveryServicesService, DeliveryServiceRegexesService],
})
export class DeliveryServicesModule {}
