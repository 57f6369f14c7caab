import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { keyStoreConfig } from 'src/config/key-store.config';
import { DeliveryServicesModule } from 'src/modules/delivery-services/delivery-services.module';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { KeyStoreEntry } from './key-store.entity';
import { KeyStoreService } from './key-store.service';
import {
  CdnSslKeysController,
  DeliveryServiceKeysController,
  SslKeyExpirationsController,
} from './keys.controller';
import { KeysService } from './keys.service';

/** The keys the original keeps in Traffic Vault, encrypted in this service's database (docs/decisions.md#d65). */
@Module({
  imports: [
    ConfigModule.forFeature(keyStoreConfig),
    TypeOrmModule.forFeature([KeyStoreEntry]),
    TenantsModule,
    DeliveryServicesModule,
  ],
  controllers: [DeliveryServiceKeysController, CdnSslKeysController, SslKeyExpirationsController],
  providers: [KeyStoreService, KeysService],
})
export class KeysModule {}
