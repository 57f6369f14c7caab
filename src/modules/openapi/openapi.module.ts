import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';
import { OpenApiDocuments } from './openapi.documents';

@Module({
  controllers: [OpenApiController],
  providers: [OpenApiDocuments],
  exports: [OpenApiDocuments],
})
export class OpenApiModule {}
