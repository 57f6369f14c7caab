import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { ParameterDto } from './dto/parameter.dto';
import { toParameterResponse } from './dto/parameter.response';
import { type ObjectOrArray, ValidBody } from 'src/common/validation/valid-body';
import { PARAMETER_LIST } from './parameters.list';
import { ParametersService } from './parameters.service';
import { canReadSecureValues } from './secure-values';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

@ConditionalOn('parameter')
@WireTimes({ rfc3339From: '5.0', specified: true })
@Controller({ path: 'parameters', version: ALL_VERSIONS })
@ApiTags('parameters')
export class ParametersController {
  constructor(private readonly parameters: ParametersService) {}

  /** Secure values read `********` unless the user may see them (secure-values.ts). */
  @Get()
  @ApiOperation({ summary: 'List the parameters' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('PARAMETER:READ')
  async list(
    @ListParams(PARAMETER_LIST) query: ListQuery,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const canReadSecure = canReadSecureValues(user, version);
    return (await this.parameters.list(query)).map((p) =>
      toParameterResponse(p.parameter, p.profiles, canReadSecure),
    );
  }

  /**
   * One object or an array, all in one transaction. As the original's multi-create: `[]` says so,
   * one object (alone or in an array) answers `param was created.` with it; several answer
   * `params were created.` (the original sends `response: null` then; we send the created array).
   */
  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create one or more parameters' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PARAMETER:CREATE', 'PARAMETER:READ')
  async create(@ValidBody(ParameterDto, { many: true }) { items }: ObjectOrArray<ParameterDto>) {
    if (items.length === 0) {
      return ApiResult.alertsOnly(successAlert('No objects were provided in request.'));
    }
    const created = (await this.parameters.create(items)).map((p) => toParameterResponse(p, null));
    return created.length === 1
      ? ApiResult.of(created[0], successAlert('param was created.'))
      : ApiResult.of(created, successAlert('params were created.'));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a parameter' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PARAMETER:UPDATE', 'PARAMETER:READ')
  async update(@ValidPath('id', IntKey()) id: number, @ValidBody(ParameterDto) dto: ParameterDto) {
    const updated = await this.parameters.update(id, dto);
    return ApiResult.of(toParameterResponse(updated, null), successAlert('param was updated.'));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a parameter' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PARAMETER:DELETE', 'PARAMETER:READ')
  async remove(@ValidPath('id', IntKey()) id: number) {
    await this.parameters.remove(id);
    return ApiResult.alertsOnly(successAlert('param was deleted.'));
  }
}
