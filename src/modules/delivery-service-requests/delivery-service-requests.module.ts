import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryServicesModule } from 'src/modules/delivery-services/delivery-services.module';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { DeliveryServiceRequest } from './delivery-service-request.entity';
import {
  DeliveryServiceRequestsController,
  DeliveryServiceRequestWorkflowController,
} from './delivery-service-requests.controller';
import { DeliveryServiceRequestsService } from './delivery-service-requests.service';

@Module({
  imports: [TypeOrmModule.forFeature([DeliveryServiceRequest]), DeliveryServicesModule, TenantsModule],
  controllers: [DeliveryServiceRequestsController, DeliveryServiceRequestWorkflowController],
  providers: [DeliveryServiceRequestsService],
  exports: [DeliveryServiceRequestsService],
})
export class DeliveryServiceRequestsModule {}
