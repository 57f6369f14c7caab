import { Controller, Get, HttpCode, ServiceUnavailableException, VERSION_NEUTRAL } from '@nestjs/common';
import { Public } from 'src/common/decorators/auth.decorators';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthRepository } from './health.repository';

const READINESS_TIMEOUT_MS = 1500;

/**
 * Unversioned probes for load balancers and orchestrators (outside /api/): liveness says the process
 * answers; readiness also needs the database to answer within 1.5 s, else 503.
 */
@Controller({ path: 'health', version: VERSION_NEUTRAL })
@ApiTags('health')
export class HealthController {
  constructor(private readonly database: HealthRepository) {}

  @Get('live')
  @ApiOperation({ summary: 'Report that the process answers' })
  @Public()
  @RawResponse()
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Report whether the database answers' })
  @HttpCode(200)
  @Public()
  @RawResponse()
  async ready(): Promise<{ status: string; database: string }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), READINESS_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.database.ping(), timeout]);
      return { status: 'ok', database: 'up' };
    } catch (error) {
      throw new ServiceUnavailableException(
        `the database is not answering: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
