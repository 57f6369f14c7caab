import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Type } from './type.entity';
import { TypesController } from './types.controller';
import { TypesRepository } from './types.repository';
import { TypesService } from './types.service';

@Module({
  imports: [TypeOrmModule.forFeature([Type])],
  controllers: [TypesController],
  providers: [TypesService, TypesRepository],
  exports: [TypesService],
})
export class TypesModule {}
