import { Controller, Get } from '@nestjs/common';
import { Public } from 'src/common/decorators/auth.decorators';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { ApiOperation, ApiTags } from '@nestjs/swagger';

/** `GET /api/{v}/ping`: the original's liveness probe for clients, answering without a session. */
@Controller({ path: 'ping', version: ALL_VERSIONS })
@ApiTags('ping')
export class PingController {
  @Get()
  @ApiOperation({ summary: 'Check that the API answers' })
  @Public()
  @RawResponse()
  ping(): { ping: string } {
    return { ping: 'pong' };
  }
}
