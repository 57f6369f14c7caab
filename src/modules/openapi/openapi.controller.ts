import { Controller, Get, NotFoundException } from '@nestjs/common';
import { ApiOperation, ApiTags, type OpenAPIObject } from '@nestjs/swagger';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { Public } from 'src/common/decorators/auth.decorators';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { OpenApiDocuments } from './openapi.documents';

/** `GET /api/{v}/openapi.json`: the version's OpenAPI 3 document; browsable at /api/docs. */
@Controller({ path: 'openapi.json', version: ALL_VERSIONS })
@ApiTags('openapi')
export class OpenApiController {
  constructor(private readonly documents: OpenApiDocuments) {}

  @Get()
  @ApiOperation({ summary: "Show this API version's OpenAPI document" })
  @Public()
  @RawResponse()
  document(@RequestedVersion() version: ApiVersion): OpenAPIObject {
    const document = this.documents.forVersion(version.toString());
    if (!document) {
      throw new NotFoundException('no API document for this version');
    }
    return document;
  }
}
