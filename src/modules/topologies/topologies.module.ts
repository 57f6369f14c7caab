import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { ServersModule } from 'src/modules/servers/servers.module';
import { TopologiesController } from './topologies.controller';
import { TopologiesRepository } from './topologies.repository';
import { TopologiesService } from './topologies.service';
import { TopologyCachegroupParent } from './topology-cachegroup-parent.entity';
import { TopologyCachegroup } from './topology-cachegroup.entity';
import { Topology } from './topology.entity';
import { TopologyChecks } from './topology-checks';

@Module({
  imports: [
    TypeOrmModule.forFeature([Topology, TopologyCachegroup, TopologyCachegroupParent]),
    ServersModule,
    CdnLocksModule,
  ],
  controllers: [TopologiesController],
  providers: [TopologiesService, TopologiesRepository, TopologyChecks],
  exports: [TopologiesService],
})
export class TopologiesModule {}
