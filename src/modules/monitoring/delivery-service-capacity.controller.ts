import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult } from 'src/common/http/alerts';
import { IntParam } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { MonitoringService } from './monitoring.service';

/**
 * A delivery service's share of its CDN's edge capacity, read from the CDN's Traffic Monitors
 * (docs/original-behaviour.md#cdn-monitoring).
 */
@Controller({ path: 'deliveryservices', version: ALL_VERSIONS })
@ApiTags('cdn monitoring')
export class DeliveryServiceCapacityController {
  constructor(private readonly monitoring: MonitoringService) {}

  @Get(':id/capacity')
  @ApiOperation({ summary: "Show a delivery service's edge bandwidth use as a share of its capacity" })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DELIVERY-SERVICE:READ')
  async capacity(@ValidPath('id', IntParam()) id: number, @CurrentUser() user: CurrentUser) {
    const { data, warnings } = await this.monitoring.deliveryServiceCapacity(id, user.tenantId);
    return ApiResult.of(data, ...warnings);
  }
}
