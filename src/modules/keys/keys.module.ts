import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { keyStoreConfig } from 'src/config/key-store.config';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { ChangeLogModule } from 'src/modules/change-log/change-log.module';
import { DeliveryServicesModule } from 'src/modules/delivery-services/delivery-services.module';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { KeyStoreEntry } from './store/key-store.entity';
import { CdnDnssecKeysController, CdnDnssecRefreshV3Controller } from './dnssec/dnssec-keys.controller';
import { DnssecKeysService } from './dnssec/dnssec-keys.service';
import { DnssecRepository } from './dnssec/dnssec.repository';
import { KeyStoreRepository } from './store/key-store.repository';
import { KeyStoreService } from './store/key-store.service';
import {
  CdnSslKeysController,
  DeliveryServiceKeysController,
  SslKeyExpirationsController,
} from './keys.controller';
import { KeyOwnersService } from './key-owners.service';
import { KeysRepository } from './keys.repository';
import { SslKeysService } from './ssl/ssl-keys.service';
import { UriSigningKeysService } from './uri-sig/uri-signing-keys.service';
import { UrlSigKeysService } from './url-sig/url-sig-keys.service';

/** The keys the original keeps in Traffic Vault (DNSSEC keys included), encrypted in this service's database (docs/decisions.md#d65). */
@Module({
  imports: [
    ConfigModule.forFeature(keyStoreConfig),
    TypeOrmModule.forFeature([KeyStoreEntry]),
    TenantsModule,
    DeliveryServicesModule,
    CdnLocksModule,
    ChangeLogModule,
  ],
  controllers: [
    DeliveryServiceKeysController,
    CdnSslKeysController,
    SslKeyExpirationsController,
    CdnDnssecKeysController,
    CdnDnssecRefreshV3Controller,
  ],
  providers: [
    KeyStoreService,
    KeyOwnersService,
    SslKeysService,
    UrlSigKeysService,
    UriSigningKeysService,
    DnssecKeysService,
    KeysRepository,
    KeyStoreRepository,
    DnssecRepository,
  ],
})
export class KeysModule {}
