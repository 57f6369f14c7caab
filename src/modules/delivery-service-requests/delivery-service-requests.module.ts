import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryServicesModule } from 'src/modules/delivery-services/delivery-services.module';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { DeliveryServiceRequest } from './delivery-service-request.entity';
import { DeliveryServiceRequestComment } from './delivery-service-request-comment.entity';
import { DeliveryServiceRequestCommentsController } from './delivery-service-request-comments.controller';
import { DeliveryServiceRequestCommentsService } from './delivery-service-request-comments.service';
import {
  DeliveryServiceRequestsController,
  DeliveryServiceRequestWorkflowController,
} from './delivery-service-requests.controller';
import { DeliveryServiceRequestsRepository } from './delivery-service-requests.repository';
import { DeliveryServiceRequestsService } from './delivery-service-requests.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([DeliveryServiceRequest, DeliveryServiceRequestComment]),
    DeliveryServicesModule,
    TenantsModule,
  ],
  controllers: [
    DeliveryServiceRequestsController,
    DeliveryServiceRequestWorkflowController,
    DeliveryServiceRequestCommentsController,
  ],
  providers: [
    DeliveryServiceRequestsRepository,
    DeliveryServiceRequestsService,
    DeliveryServiceRequestCommentsService,
  ],
  exports: [DeliveryServiceRequestsService],
})
export class DeliveryServiceRequestsModule {}
