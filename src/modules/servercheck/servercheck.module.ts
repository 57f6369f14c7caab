import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ServercheckController, ServercheckExtensionsController } from './servercheck.controller';
import { ServerCheck } from './servercheck.entity';
import { ServercheckRepository } from './servercheck.repository';
import { ServercheckService } from './servercheck.service';
import { ToExtension } from './to-extension.entity';

@Module({
  imports: [TypeOrmModule.forFeature([ServerCheck, ToExtension])],
  controllers: [ServercheckExtensionsController, ServercheckController],
  providers: [ServercheckService, ServercheckRepository],
})
export class ServercheckModule {}
