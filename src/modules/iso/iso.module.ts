import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { isoConfig } from 'src/config/iso.config';
import { OsVersionsController } from './iso.controller';
import { IsoRepository } from './iso.repository';
import { IsoService } from './iso.service';

/** ISO generation's data: GET osversions (the ISO itself, POST isos, is not served). */
@Module({
  imports: [ConfigModule.forFeature(isoConfig)],
  controllers: [OsVersionsController],
  providers: [IsoService, IsoRepository],
})
export class IsoModule {}
