import { Controller, HttpCode, Post } from '@nestjs/common';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { QueueUpdateBody } from './dto/queue-update.dto';
import { ServersQueueService } from './servers-queue.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

/**
 * POST cachegroups/{id}/queue_update: queues or clears updates on all the servers of a cache group
 * of one CDN (docs/original-behaviour.md#cachegroup-operations). It writes servers' update flags,
 * so it lives with the server table's owner.
 */
@Controller({ path: 'cachegroups', version: ALL_VERSIONS })
@ApiTags('cache groups')
export class CachegroupQueueController {
  constructor(private readonly queue: ServersQueueService) {}

  /** Answers the result without alerts (docs/decisions.md#d6). */
  @Post(':id/queue_update')
  @ApiOperation({ summary: "Queue or dequeue updates on a cache group's servers" })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CACHE-GROUP:READ', 'CDN:READ', 'SERVER:READ', 'SERVER:QUEUE')
  queueUpdates(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(QueueUpdateBody) body: QueueUpdateBody,
    @CurrentUser() user: CurrentUser,
  ) {
    return this.queue.queueUpdates(id, body, user);
  }
}
