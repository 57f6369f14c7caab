import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ServiceCategoriesController } from './service-categories.controller';
import { ServiceCategoriesRepository } from './service-categories.repository';
import { ServiceCategoriesService } from './service-categories.service';
import { ServiceCategory } from './service-category.entity';

@Module({
  imports: [TypeOrmModule.forFeature([ServiceCategory])],
  controllers: [ServiceCategoriesController],
  providers: [ServiceCategoriesService, ServiceCategoriesRepository],
  exports: [ServiceCategoriesService],
})
export class ServiceCategoriesModule {}
