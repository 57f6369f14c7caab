import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { DeliveryServiceServer } from './delivery-service-server.entity';
import { DeliveryServiceServersController } from './delivery-service-servers.controller';
import { DeliveryServiceServersService } from './delivery-service-servers.service';

/** Server ↔ delivery service assignments; the service is also used by the cache-group bulk assignment. */
@Module({
  imports: [TypeOrmModule.forFeature([DeliveryServiceServer]), TenantsModule],
  controllers: [DeliveryServiceServersController],
  providers: [DeliveryServiceServersService],
  exports: [DeliveryServiceServersService],
})
export class DeliveryServiceServersModule {}
