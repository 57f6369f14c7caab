import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CdnNotification } from './cdn-notification.entity';
import { CdnNotificationsController } from './cdn-notifications.controller';
import { CdnNotificationsRepository } from './cdn-notifications.repository';
import { CdnNotificationsService } from './cdn-notifications.service';

@Module({
  imports: [TypeOrmModule.forFeature([CdnNotification])],
  controllers: [CdnNotificationsController],
  providers: [CdnNotificationsService, CdnNotificationsRepository],
})
export class CdnNotificationsModule {}
