import { Controller, Get } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { SteeringService } from './steering.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';

/** GET /steering: roles Portal, Steering, Federation, operations, admin (level 15, docs/decisions.md#d12). */
@Controller({ path: 'steering', version: ALL_VERSIONS })
@ApiTags('steering')
export class SteeringController {
  constructor(private readonly steering: SteeringService) {}

  @Get()
  @ApiOperation({ summary: 'List the steering delivery services with their targets and filters' })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('STEERING:READ', 'DELIVERY-SERVICE:READ')
  list() {
    return this.steering.list();
  }
}
