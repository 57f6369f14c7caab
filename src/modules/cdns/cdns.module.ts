import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { Cdn } from './cdn.entity';
import { CdnsController } from './cdns.controller';
import { CdnsRepository } from './cdns.repository';
import { CdnsService } from './cdns.service';

@Module({
  imports: [TypeOrmModule.forFeature([Cdn]), CdnLocksModule],
  controllers: [CdnsController],
  providers: [CdnsService, CdnsRepository],
  exports: [CdnsService],
})
export class CdnsModule {}
