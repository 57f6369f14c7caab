import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { ConsistentHashQueryParam } from './consistent-hash-query-param.entity';
import { DeliveryServiceRegex } from './delivery-service-regex.entity';
import { DeliveryServiceSafeController } from './delivery-service-safe.controller';
import { DeliveryServiceTlsVersion } from './delivery-service-tls-version.entity';
import { DeliveryService } from './delivery-service.entity';
import { DeliveryServiceByIdController, DeliveryServicesController } from './delivery-services.controller';
import { DeliveryServicesService } from './delivery-services.service';
import { Origin } from './origin.entity';
import { Regex } from './regex.entity';

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
    CdnLocksModule,
  ],
  controllers: [DeliveryServiceSafeController, DeliveryServicesController, DeliveryServiceByIdController],
  providers: [DeliveryServicesService],
  exports: [DeliveryServicesService],
})
export class DeliveryServicesModule {}
