import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { IpAddress } from './ip-address.entity';
import { ServerInterface } from './server-interface.entity';
import { ServerProfile } from './server-profile.entity';
import { Server } from './server.entity';
import { CachegroupQueueController } from './cachegroup-queue.controller';
import { CdnQueueController } from './cdn-queue.controller';
import { ServersController } from './servers.controller';
import { ServersQueueService } from './servers-queue.service';
import {
  ServerUpdateStatusController,
  ServerUpdateStatusV3Controller,
  ServerUpdatesController,
} from './server-updates.controller';
import { ServerUpdatesService } from './server-updates.service';
import { ServersService } from './servers.service';
import { ServerStatusService } from './server-status.service';
import { ServerUpdatesRepository } from './server-updates.repository';
import { ServersRepository } from './servers.repository';

@Module({
  imports: [
    TypeOrmModule.forFeature([Server, ServerProfile, ServerInterface, IpAddress]),
    TenantsModule,
    CdnLocksModule,
  ],
  controllers: [
    ServersController,
    ServerUpdatesController,
    ServerUpdateStatusController,
    ServerUpdateStatusV3Controller,
    CachegroupQueueController,
    CdnQueueController,
  ],
  providers: [
    ServersRepository,
    ServerUpdatesRepository,
    ServersService,
    ServersQueueService,
    ServerUpdatesService,
    ServerStatusService,
  ],
  exports: [ServersService, ServersQueueService],
})
export class ServersModule {}
