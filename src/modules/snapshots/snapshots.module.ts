import { Module } from '@nestjs/common';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { StaticDnsEntriesModule } from 'src/modules/static-dns-entries/static-dns-entries.module';
import { CdnSnapshotsController, SnapshotController } from './snapshots.controller';
import { SnapshotsRepository } from './snapshots.repository';
import { SnapshotsService } from './snapshots.service';

/**
 * Snapshots: the CRConfig Traffic Router runs on and the monitoring configuration Traffic Monitor
 * runs on, taken per CDN into the `snapshot` table and served from it.
 */
@Module({
  imports: [CdnLocksModule, StaticDnsEntriesModule],
  controllers: [SnapshotController, CdnSnapshotsController],
  providers: [SnapshotsService, SnapshotsRepository],
})
export class SnapshotsModule {}
