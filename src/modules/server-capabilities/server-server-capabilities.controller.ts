import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion, versionsFrom } from 'src/common/versioning/api-version';
import {
  AssignMultipleServersCapabilitiesDto,
  type MultipleServersCapabilities,
  RemoveMultipleServersCapabilitiesDto,
} from './dto/multiple-servers-capabilities.dto';
import { ServerServerCapabilityDto } from './dto/server-server-capability.dto';
import {
  type MultipleServersCapabilitiesV41,
  toServerServerCapabilityResponse,
} from './dto/server-server-capability.response';
import { INT_KEY, rowByQuery, TEXT_KEY } from './query-keys';
import { SERVER_SERVER_CAPABILITY_LIST } from './server-capabilities.list';
import { ServerServerCapabilitiesService } from './server-server-capabilities.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidQuery } from 'src/common/request-input/request-input';

/**
 * `server_server_capabilities` (docs/original-behaviour.md#server-server-capabilities): which
 * capabilities servers have; the original's generic handlers (tag `server server_capability`).
 */
@ConditionalOn({
  table: 'server_server_capability',
  row: rowByQuery({ server: ['serverId', 'int'], server_capability: ['serverCapability', 'string'] }),
})
@Controller({ path: 'server_server_capabilities', version: ALL_VERSIONS })
@ApiTags('server server capabilities')
export class ServerServerCapabilitiesController {
  constructor(private readonly pairs: ServerServerCapabilitiesService) {}

  @Get()
  @ApiOperation({ summary: 'List the capabilities assigned to servers' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('SERVER:READ', 'SERVER-CAPABILITY:READ')
  async list(
    @ListParams(SERVER_SERVER_CAPABILITY_LIST) query: ListQuery,
    @RequestedVersion() version: ApiVersion,
  ) {
    return (await this.pairs.list(query)).map((row) => toServerServerCapabilityResponse(row, version));
  }

  @Post()
  @ApiOperation({ summary: 'Assign a capability to a server' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER:UPDATE', 'SERVER:READ', 'SERVER-CAPABILITY:READ')
  async create(
    @ValidBody(ServerServerCapabilityDto) dto: ServerServerCapabilityDto,
    @RequestedVersion() version: ApiVersion,
  ) {
    const row = await this.pairs.create(dto);
    return ApiResult.of(
      toServerServerCapabilityResponse(row, version),
      successAlert('server server_capability was created.'),
    );
  }

  @Delete()
  @ApiOperation({ summary: 'Remove a capability from a server' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER:UPDATE', 'SERVER:READ', 'SERVER-CAPABILITY:READ')
  async remove(
    @ValidQuery({ serverId: INT_KEY, serverCapability: TEXT_KEY })
    { serverId, serverCapability: capability }: { serverId: number; serverCapability: string },
    @CurrentUser() user: CurrentUser,
  ) {
    await this.pairs.remove(user, serverId, capability);
    return ApiResult.alertsOnly(successAlert('server server_capability was deleted.'));
  }
}

/** The body as the original echoes it: every field, null for a list not given. */
function echo(body: MultipleServersCapabilities): MultipleServersCapabilitiesV41 {
  return {
    serverCapabilities: body.serverCapabilities ?? null,
    serverIds: body.serverIds ?? null,
    pageType: body.pageType ?? '',
  };
}

/**
 * `multiple_servers_capabilities` (4.1+, docs/original-behaviour.md#multiple-servers-capabilities):
 * one server's capabilities, or one capability's servers, in one request.
 */
@Controller({ path: 'multiple_servers_capabilities', version: versionsFrom('4.1') })
@ApiTags('server server capabilities')
export class MultipleServersCapabilitiesController {
  constructor(private readonly pairs: ServerServerCapabilitiesService) {}

  @Post()
  @ApiOperation({ summary: 'Assign capabilities to a server, or servers to a capability' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER:READ', 'SERVER:CREATE', 'SERVER-CAPABILITY:READ', 'SERVER-CAPABILITY:CREATE')
  async assign(@ValidBody(AssignMultipleServersCapabilitiesDto) body: AssignMultipleServersCapabilitiesDto) {
    const pageType = await this.pairs.assignMany(body);
    const text =
      pageType === 'sc' ? 'Assign Server(s) to a capability' : 'Assign Server Capability(ies) to a server';
    return ApiResult.of(echo(body), successAlert(text));
  }

  /** Alerts only when something was removed, as the original. */
  @Delete()
  @ApiOperation({ summary: 'Remove capabilities from a server, or servers from a capability' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER:READ', 'SERVER:DELETE', 'SERVER-CAPABILITY:READ', 'SERVER-CAPABILITY:DELETE')
  async remove(@ValidBody(RemoveMultipleServersCapabilitiesDto) body: RemoveMultipleServersCapabilitiesDto) {
    const { pageType, removed } = await this.pairs.removeMany(body);
    if (removed === 0) {
      return ApiResult.of(echo(body));
    }
    const text =
      pageType === 'sc'
        ? 'Removed Server(s) associated with a capability'
        : 'Removed Server Capability(ies) associated with a server';
    return ApiResult.of(echo(body), successAlert(text));
  }
}
