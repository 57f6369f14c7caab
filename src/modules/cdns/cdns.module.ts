import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { Cdn } from './cdn.entity';
import { CdnsController } from './cdns.controller';
import { CdnsService } from './cdns.service';

@Module({
  imports: [TypeOrmModule.forFeature([Cdn]), CdnLocksModule],
  controllers: [CdnsController],
  providers: [CdnsService],
  exports: [CdnsService],
})
export class CdnsModule {}
