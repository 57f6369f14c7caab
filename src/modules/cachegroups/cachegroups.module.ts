import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { CoordinatesModule } from 'src/modules/coordinates/coordinates.module';
import { Asn } from './asn.entity';
import { AsnsByPathController, AsnsController } from './asns.controller';
import { AsnsService } from './asns.service';
import { CachegroupFallback } from './cachegroup-fallback.entity';
import { CachegroupLocalizationMethod } from './cachegroup-localization-method.entity';
import { Cachegroup } from './cachegroup.entity';
import { CachegroupsController } from './cachegroups.controller';
import { CachegroupsRepository } from './cachegroups.repository';
import { CachegroupsService } from './cachegroups.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([Cachegroup, CachegroupLocalizationMethod, CachegroupFallback, Asn]),
    CdnLocksModule,
    CoordinatesModule,
  ],
  controllers: [CachegroupsController, AsnsController, AsnsByPathController],
  providers: [CachegroupsService, AsnsService, CachegroupsRepository],
  exports: [CachegroupsService, AsnsService],
})
export class CachegroupsModule {}
