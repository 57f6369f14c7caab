import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CdnLockUser } from './cdn-lock-user.entity';
import { CdnLock } from './cdn-lock.entity';
import { CdnLocksController } from './cdn-locks.controller';
import { CdnLocksRepository } from './cdn-locks.repository';
import { CdnLocksService } from './cdn-locks.service';

/** CDN locks; exports CdnLocksService, whose assert* methods other modules call before CDN writes. */
@Module({
  imports: [TypeOrmModule.forFeature([CdnLock, CdnLockUser])],
  controllers: [CdnLocksController],
  providers: [CdnLocksService, CdnLocksRepository],
  exports: [CdnLocksService],
})
export class CdnLocksModule {}
