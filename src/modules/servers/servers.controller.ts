import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { ValidBody } from 'src/common/validation/valid-body';
import { ServerV3Dto, ServerV4Dto, ServerV5Dto } from './dto/server.dto';
import { type LoadedServer, toServerResponse } from './dto/server.response';
import { SERVER_LIST } from './servers.list';
import { ServersService } from './servers.service';
import { ServerStatusService } from './server-status.service';
import { ServerStatusBody } from './dto/server-status.dto';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

const SERVER_BODIES = { '3.0': ServerV3Dto, '4.0': ServerV4Dto, '5.0': ServerV5Dto };

@ConditionalOn('server')
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'servers', version: ALL_VERSIONS })
@ApiTags('servers')
export class ServersController {
  constructor(
    private readonly servers: ServersService,
    private readonly statuses: ServerStatusService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the servers' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('SERVER:READ')
  async list(
    @ListParams(SERVER_LIST) query: ListQuery,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const { servers, count } = await this.servers.list(query, user.tenantId);
    return ApiResult.list(this.show(servers, version, user), count);
  }

  @Post()
  @CreatedFrom('3.0')
  @ApiOperation({ summary: 'Create a server' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER:CREATE', 'SERVER:READ')
  async create(
    @ValidBody(SERVER_BODIES) body: ServerV3Dto | ServerV4Dto,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const server = await this.servers.create(body, user);
    return ApiResult.of(this.show([server], version, user)[0], successAlert('Server created'));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a server' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER:UPDATE', 'SERVER:READ')
  async update(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(SERVER_BODIES) body: ServerV3Dto | ServerV4Dto,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const server = await this.servers.update(id, body, user);
    return ApiResult.of(this.show([server], version, user)[0], successAlert('Server updated'));
  }

  /** Sets the status (and offline reason); answers a success alert only. */
  @Put(':id/status')
  @ApiOperation({ summary: "Set a server's status" })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER:UPDATE', 'SERVER:READ', 'STATUS:READ')
  async setStatus(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(ServerStatusBody) body: ServerStatusBody,
    @CurrentUser() user: CurrentUser,
  ) {
    return ApiResult.alertsOnly(successAlert(await this.statuses.setStatus(id, body, user)));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a server' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER:DELETE', 'SERVER:READ')
  async remove(
    @ValidPath('id', IntParam()) id: number,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const server = await this.servers.remove(id, user);
    return ApiResult.of(this.show([server], version, user)[0], successAlert('Server deleted'));
  }

  /** Passwords are shown to the operations level and above only. */
  private show(servers: LoadedServer[], version: ApiVersion, user: CurrentUser) {
    return servers.map((s) => toServerResponse(s, version, user.privLevel >= Number(PrivLevel.Operations)));
  }
}
