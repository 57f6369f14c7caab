import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { ParametersModule } from 'src/modules/parameters/parameters.module';
import { CdnDomainsController } from './cdn-domains.controller';
import { Profile } from './profile.entity';
import { ProfilesController } from './profiles.controller';
import { ProfilesRepository } from './profiles.repository';
import { ProfilesService } from './profiles.service';

@Module({
  imports: [TypeOrmModule.forFeature([Profile]), ParametersModule, CdnLocksModule],
  controllers: [ProfilesController, CdnDomainsController],
  providers: [ProfilesService, ProfilesRepository],
  exports: [ProfilesService],
})
export class ProfilesModule {}
