import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import type { CurrentUser as SessionUser } from 'src/common/types/current-user';
import { IntParamPipe } from 'src/common/validation/id.pipe';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { DeliveryServiceServersService } from 'src/modules/delivery-service-servers/delivery-service-servers.service';
import { CachegroupAssignmentDto } from 'src/modules/delivery-service-servers/dto/assignment.dto';
import { QueueUpdateBody, type QueueUpdateRequest } from 'src/modules/servers/dto/queue-update.dto';
import { ValidBody } from 'src/common/validation/valid-body';
import { ServersQueueService } from 'src/modules/servers/servers-queue.service';

/** Operations on all the servers of a cache group (docs/original-behaviour.md#cachegroup-operations). */
@Controller({ path: 'cachegroups', version: ALL_VERSIONS })
export class CachegroupOperationsController {
  constructor(
    private readonly assignments: DeliveryServiceServersService,
    private readonly queue: ServersQueueService,
  ) {}

  @Post(':id/deliveryservices')
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions(
    'CACHE-GROUP:UPDATE',
    'DELIVERY-SERVICE:UPDATE',
    'CACHE-GROUP:READ',
    'DELIVERY-SERVICE:READ',
  )
  async assignDeliveryServices(
    @Param('id', new IntParamPipe()) id: number,
    @ValidBody(CachegroupAssignmentDto) dto: CachegroupAssignmentDto,
    @CurrentUser() user: SessionUser,
  ) {
    const result = await this.assignments.assignCachegroup(user, id, dto.deliveryServices);
    return ApiResult.of(
      result,
      successAlert(`Delivery services successfully assigned to all the servers of cache group ${id}.`),
    );
  }

  /** Answers the result without alerts (docs/decisions.md#d6). */
  @Post(':id/queue_update')
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CACHE-GROUP:READ', 'CDN:READ', 'SERVER:READ', 'SERVER:QUEUE')
  queueUpdates(
    @Param('id', new IntParamPipe()) id: number,
    @ValidBody(QueueUpdateBody) body: QueueUpdateRequest,
    @CurrentUser() user: SessionUser,
  ) {
    return this.queue.queueUpdates(id, body, user);
  }
}
