import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Asn } from './asn.entity';
import { CachegroupFallback } from './cachegroup-fallback.entity';
import { CachegroupLocalizationMethod } from './cachegroup-localization-method.entity';
import { Cachegroup } from './cachegroup.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Cachegroup, CachegroupLocalizationMethod, CachegroupFallback, Asn])],
})
export class CachegroupsModule {}
