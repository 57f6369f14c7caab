import { Controller, HttpCode, Post } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { CdnLocksService } from 'src/modules/cdn-locks/cdn-locks.service';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { QueueActionBody } from './dto/queue-action.dto';
import type { CdnQueueUpdateResponse } from './dto/server-update-status.response';
import { ServersQueueService } from './servers-queue.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam, TextParam } from 'src/common/request-input/param-rules';
import { ValidPath, ValidQuery } from 'src/common/request-input/request-input';

/** The first value of a query parameter given as text. */
/**
 * Queues (or clears) updates on the servers of a CDN, optionally of one type (`?type=`) and/or with
 * one profile (`?profile=`), by name (docs/original-behaviour.md#cdn-queue-update). It writes servers' update flags, so it
 * lives with the server table's owner.
 */
@Controller({ path: 'cdns', version: ALL_VERSIONS })
@ApiTags('cdns')
export class CdnQueueController {
  constructor(
    private readonly queue: ServersQueueService,
    private readonly locks: CdnLocksService,
  ) {}

  /** Answers the action and the CDN, without alerts. */
  @Post(':id/queue_update')
  @ApiOperation({ summary: "Queue or dequeue updates on a CDN's servers" })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER:QUEUE', 'CDN:READ')
  async queueUpdates(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(QueueActionBody) { action }: QueueActionBody,
    @ValidQuery('type', TextParam()) type: string | undefined,
    @ValidQuery('profile', TextParam()) profile: string | undefined,
    @CurrentUser() user: CurrentUser,
  ): Promise<CdnQueueUpdateResponse> {
    // Another user's lock on the CDN refuses its queue operations (the original's check).
    await this.locks.assertHoldsLock(id, user);
    await this.queue.queueCdn(id, action, { type, profile });
    return { action, cdnId: id };
  }
}
