import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryServiceServer } from './delivery-service-server.entity';

@Module({
  imports: [TypeOrmModule.forFeature([DeliveryServiceServer])],
})
export class DeliveryServiceServersModule {}
