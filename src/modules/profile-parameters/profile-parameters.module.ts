import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CdnLocksModule } from 'src/modules/cdn-locks/cdn-locks.module';
import { ParametersModule } from 'src/modules/parameters/parameters.module';
import { ProfilesModule } from 'src/modules/profiles/profiles.module';
import { ProfileNameParametersController } from './profile-name-parameters.controller';
import { ProfileParameterController } from './profile-parameter.controller';
import { ProfileParameter } from './profile-parameter.entity';
import { ProfileParametersController } from './profile-parameters.controller';
import { ProfileParametersRepository } from './profile-parameters.repository';
import { ProfileParametersService } from './profile-parameters.service';
import { ProfileCopyImportController } from './profile-copy-import.controller';
import { ProfileCopyImportService } from './profile-copy-import.service';
import {
  ParameterProfileController,
  ProfileIdParametersController,
} from './profile-id-parameters.controller';

@Module({
  imports: [TypeOrmModule.forFeature([ProfileParameter]), ParametersModule, ProfilesModule, CdnLocksModule],
  controllers: [
    ProfileParametersController,
    ProfileNameParametersController,
    ProfileParameterController,
    ProfileIdParametersController,
    ParameterProfileController,
    ProfileCopyImportController,
  ],
  providers: [ProfileParametersService, ProfileCopyImportService, ProfileParametersRepository],
  exports: [ProfileParametersService],
})
export class ProfileParametersModule {}
