import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryServiceServersModule } from 'src/modules/delivery-service-servers/delivery-service-servers.module';
import { ServersModule } from 'src/modules/servers/servers.module';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { Type } from 'src/modules/types/type.entity';
import { Asn } from './asn.entity';
import { AsnsByPathController, AsnsController } from './asns.controller';
import { AsnsService } from './asns.service';
import { CachegroupFallback } from './cachegroup-fallback.entity';
import { CachegroupOperationsController } from './cachegroup-operations.controller';
import { CachegroupLocalizationMethod } from './cachegroup-localization-method.entity';
import { Cachegroup } from './cachegroup.entity';
import { CachegroupsController } from './cachegroups.controller';
import { CachegroupsService } from './cachegroups.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([Cachegroup, CachegroupLocalizationMethod, CachegroupFallback, Asn, Type]),
    DeliveryServiceServersModule,
    ServersModule,
    CdnLocksModule,
  ],
  controllers: [CachegroupsController, CachegroupOperationsController, AsnsController, AsnsByPathController],
  providers: [CachegroupsService, AsnsService],
  exports: [CachegroupsService, AsnsService],
})
export class CachegroupsModule {}
