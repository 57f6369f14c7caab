import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { cdniConfig } from 'src/config/cdni.config';
import { UsersModule } from 'src/modules/users/users.module';
import { AsyncStatusController, CdniController } from './cdni.controller';
import { CDNI_ENTITIES } from './cdni.entity';
import { CdniRepository } from './cdni.repository';
import { CdniService } from './cdni.service';

@Module({
  imports: [ConfigModule.forFeature(cdniConfig), TypeOrmModule.forFeature(CDNI_ENTITIES), UsersModule],
  controllers: [CdniController, AsyncStatusController],
  providers: [CdniService, CdniRepository],
})
export class CdniModule {}
