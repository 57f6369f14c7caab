import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConsistentHashQueryParam } from './consistent-hash-query-param.entity';
import { DeliveryServiceRegex } from './delivery-service-regex.entity';
import { DeliveryServiceTlsVersion } from './delivery-service-tls-version.entity';
import { Origin } from './origin.entity';
import { Regex } from './regex.entity';
import { DeliveryService } from './delivery-service.entity';

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
  ],
})
export class DeliveryServicesModule {}
