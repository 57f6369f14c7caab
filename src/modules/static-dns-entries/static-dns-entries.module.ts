import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { StaticDnsEntriesController } from './static-dns-entries.controller';
import { StaticDnsEntriesRepository } from './static-dns-entries.repository';
import { StaticDnsEntriesService } from './static-dns-entries.service';
import { StaticDnsEntry } from './static-dns-entry.entity';

/**
 * Static DNS entries of delivery services (`staticdnsentries`); owns `staticdnsentry`. Exports its
 * service for the CRConfig, which lists each delivery service's entries.
 */
@Module({
  imports: [TypeOrmModule.forFeature([StaticDnsEntry]), TenantsModule, CdnLocksModule],
  controllers: [StaticDnsEntriesController],
  providers: [StaticDnsEntriesService, StaticDnsEntriesRepository],
  exports: [StaticDnsEntriesService],
})
export class StaticDnsEntriesModule {}
