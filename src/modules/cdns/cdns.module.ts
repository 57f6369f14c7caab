import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Cdn } from './cdn.entity';
import { CdnsController } from './cdns.controller';
import { CdnsService } from './cdns.service';

@Module({
  imports: [TypeOrmModule.forFeature([Cdn])],
  controllers: [CdnsController],
  providers: [CdnsService],
  exports: [CdnsService],
})
export class CdnsModule {}
