import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion, versionsFrom } from 'src/common/versioning/api-version';
import { QueueActionBody } from './dto/queue-action.dto';
import { parseServerUpdate } from './dto/server-update.query';
import { type ServerQueueUpdateResponse, toServerUpdateStatus } from './dto/server-update-status.response';
import { ServerUpdatesService } from './server-updates.service';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam, NotRead, PathText, TextParam } from 'src/common/request-input/param-rules';
import { ValidPath, ValidQuery } from 'src/common/request-input/request-input';

/**
 * The keys POST servers/{id-or-name}/update reads, per version: on 3.x `updated` and `reval_updated`;
 * from 4.0 the apply times (RFC 3339) too; from 5.0 the failure flags. parseServerUpdate checks them
 * as the original does (which must be present, which conflict, then each value, in its order).
 */
const flag = TextParam({ documents: { type: 'boolean' } });
const time = TextParam();
const SERVER_UPDATE_QUERY = {
  updated: flag,
  reval_updated: flag,
  config_apply_time: { '3.0': NotRead(), '4.0': time },
  revalidate_apply_time: { '3.0': NotRead(), '4.0': time },
  config_update_failed: { '3.0': NotRead(), '5.0': flag },
  revalidate_update_failed: { '3.0': NotRead(), '5.0': flag },
};

/**
 * What cache-configuration tools call about pending updates
 * (docs/original-behaviour.md#server-update-status): reporting updates and queueing on one server.
 */
@Controller({ path: 'servers', version: ALL_VERSIONS })
@ApiTags('servers')
export class ServerUpdatesController {
  constructor(private readonly updates: ServerUpdatesService) {}

  /** The query says what to set (per version); answers a success alert only. */
  @Post(':idOrName/update')
  @ApiOperation({ summary: "Set a server's update and revalidation status" })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER:UPDATE', 'SERVER:READ')
  async update(
    @ValidPath('idOrName', PathText()) idOrName: string,
    @ValidQuery(SERVER_UPDATE_QUERY) query: Partial<Record<string, string>>,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const text = await this.updates.update(idOrName, () => parseServerUpdate(query, version), user);
    return ApiResult.alertsOnly(successAlert(text));
  }

  /** Answers the server and the action, without alerts. */
  @Post(':id/queue_update')
  @ApiOperation({ summary: 'Queue or dequeue updates on a server' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER:QUEUE', 'SERVER:READ')
  async queue(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(QueueActionBody) { action }: QueueActionBody,
    @CurrentUser() user: CurrentUser,
  ): Promise<ServerQueueUpdateResponse> {
    await this.updates.queue(id, action, user);
    return { serverId: id, action };
  }
}

/** GET servers/{hostname}/update_status on 4.0 and later. */
@Controller({ path: 'servers', version: versionsFrom('4.0') })
@ApiTags('servers')
export class ServerUpdateStatusController {
  constructor(private readonly updates: ServerUpdatesService) {}

  @Get(':hostName/update_status')
  @ApiOperation({ summary: "Show a server's update and revalidation status" })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('SERVER:READ')
  async status(@ValidPath('hostName', PathText()) hostName: string, @RequestedVersion() version: ApiVersion) {
    const rows = await this.updates.status(hostName);
    return rows.map((row) => toServerUpdateStatus(row, version));
  }
}

/**
 * GET servers/{hostname}/update_status on 3.x: the bare array, without the envelope, as the original
 * answers. Its parameter has another name than the 4.0+ route's so that the two stay distinct paths
 * in the OpenAPI documents.
 */
@RawResponse()
@Controller({ path: 'servers', version: versionsFrom('3.0', '3.1') })
@ApiTags('servers')
export class ServerUpdateStatusV3Controller {
  constructor(private readonly updates: ServerUpdatesService) {}

  @Get(':host_name/update_status')
  @ApiOperation({ summary: "Show a server's update and revalidation status" })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('SERVER:READ')
  async status(
    @ValidPath('host_name', PathText()) hostName: string,
    @RequestedVersion() version: ApiVersion,
  ) {
    const rows = await this.updates.status(hostName);
    return rows.map((row) => toServerUpdateStatus(row, version));
  }
}
