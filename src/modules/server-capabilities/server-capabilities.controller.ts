import { Controller, Delete, Get, HttpCode, Post, Put, Version } from '@nestjs/common';
import { ConditionalOn, paramOf } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion, versionsFrom } from 'src/common/versioning/api-version';
import { ServerCapabilityDto } from './dto/server-capability.dto';
import { toServerCapabilityResponse } from './dto/server-capability.response';
import { SERVER_CAPABILITY_LIST } from './server-capabilities.list';
import { ServerCapabilitiesService, type ServerCapabilityHandler } from './server-capabilities.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { TextParam } from 'src/common/request-input/param-rules';
import { ValidQuery } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

/** Which handler of the original a version's create and update run: the description from 4.1. */
const handlerOf = (version: ApiVersion): ServerCapabilityHandler => ({
  withDescription: version.atLeast('4.1'),
});

/**
 * `server_capabilities` (docs/original-behaviour.md#server-capabilities): GET, POST and DELETE on
 * every version, PUT (a rename, `?name=`) from 4.0; `description` from 4.1; RFC 3339 times on 5.0.
 * A PUT or DELETE names its row by `?name=`, which preconditions check.
 */
@ConditionalOn({
  table: 'server_capability',
  row: (req) => {
    const name = paramOf(req, 'name');
    return name ? { name } : undefined;
  },
})
@Controller({ path: 'server_capabilities', version: ALL_VERSIONS })
@ApiTags('server capabilities')
export class ServerCapabilitiesController {
  constructor(private readonly capabilities: ServerCapabilitiesService) {}

  @Get()
  @ApiOperation({ summary: 'List the server capabilities' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('SERVER-CAPABILITY:READ')
  async list(@ListParams(SERVER_CAPABILITY_LIST) query: ListQuery, @RequestedVersion() version: ApiVersion) {
    return (await this.capabilities.list(query)).map((sc) => toServerCapabilityResponse(sc, version));
  }

  @Post()
  @CreatedFrom('4.1')
  @ApiOperation({ summary: 'Create a server capability' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER-CAPABILITY:CREATE', 'SERVER-CAPABILITY:READ')
  async create(
    @ValidBody(ServerCapabilityDto) dto: ServerCapabilityDto,
    @RequestedVersion() version: ApiVersion,
  ) {
    const sc = await this.capabilities.create(handlerOf(version), dto);
    return ApiResult.of(
      toServerCapabilityResponse(sc, version),
      successAlert('server capability was created.'),
    );
  }

  @Put()
  @ApiOperation({ summary: 'Update a server capability' })
  @Version(versionsFrom('4.0'))
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER-CAPABILITY:UPDATE', 'SERVER-CAPABILITY:READ')
  async update(
    @ValidQuery('name', TextParam()) name: string | undefined,
    @ValidBody(ServerCapabilityDto) dto: ServerCapabilityDto,
    @RequestedVersion() version: ApiVersion,
  ) {
    const sc = await this.capabilities.update(handlerOf(version), name, dto);
    // The generic handler of 4.0 ends its text with a period, the 4.1+ handler does not.
    const text = version.atLeast('4.1') ? 'server capability was updated' : 'server capability was updated.';
    return ApiResult.of(toServerCapabilityResponse(sc, version), successAlert(text));
  }

  /** On 5.0 the original answers the deleted name as the response; before, alerts only. */
  @Delete()
  @ApiOperation({ summary: 'Delete a server capability' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVER-CAPABILITY:DELETE', 'SERVER-CAPABILITY:READ')
  async remove(
    @ValidQuery('name', TextParam()) name: string | undefined,
    @RequestedVersion() version: ApiVersion,
  ) {
    await (version.atLeast('5.0') ? this.capabilities.remove(name) : this.capabilities.removeGeneric(name));
    const alert = successAlert('server capability was deleted.');
    return version.atLeast('5.0') ? ApiResult.of(name, alert) : ApiResult.alertsOnly(alert);
  }
}
