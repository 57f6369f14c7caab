import { Controller, HttpCode, Post } from '@nestjs/common';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { DeliveryServiceServersService } from './delivery-service-servers.service';
import { CachegroupAssignmentDto } from './dto/assignment.dto';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

/**
 * POST cachegroups/{id}/deliveryservices: assigns delivery services to all the servers of a cache
 * group (docs/original-behaviour.md#cachegroup-operations). It writes deliveryservice_server, so it
 * lives with that table's owner.
 */
@Controller({ path: 'cachegroups', version: ALL_VERSIONS })
@ApiTags('cache groups')
export class CachegroupAssignmentController {
  constructor(private readonly assignments: DeliveryServiceServersService) {}

  @Post(':id/deliveryservices')
  @ApiOperation({ summary: 'Assign delivery services to all the servers of a cache group' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions(
    'CACHE-GROUP:UPDATE',
    'DELIVERY-SERVICE:UPDATE',
    'CACHE-GROUP:READ',
    'DELIVERY-SERVICE:READ',
  )
  async assignDeliveryServices(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(CachegroupAssignmentDto) dto: CachegroupAssignmentDto,
    @CurrentUser() user: CurrentUser,
  ) {
    const result = await this.assignments.assignCachegroup(user, id, dto.deliveryServices);
    return ApiResult.of(
      result,
      successAlert(`Delivery services successfully assigned to all the servers of cache group ${id}.`),
    );
  }
}
