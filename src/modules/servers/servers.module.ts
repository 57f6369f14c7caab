import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IpAddress } from './ip-address.entity';
import { ServerInterface } from './server-interface.entity';
import { ServerProfile } from './server-profile.entity';
import { Server } from './server.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Server, ServerProfile, ServerInterface, IpAddress])],
})
export class ServersModule {}
