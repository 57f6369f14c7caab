import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ServersModule } from 'src/modules/servers/servers.module';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { Cdn } from './cdn.entity';
import { CdnQueueController } from './cdn-queue.controller';
import { CdnsController } from './cdns.controller';
import { CdnsService } from './cdns.service';

@Module({
  imports: [TypeOrmModule.forFeature([Cdn]), ServersModule, CdnLocksModule],
  controllers: [CdnsController, CdnQueueController],
  providers: [CdnsService],
  exports: [CdnsService],
})
export class CdnsModule {}
