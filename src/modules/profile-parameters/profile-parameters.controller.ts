import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { type ObjectOrArray, ValidBody } from 'src/common/validation/valid-body';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ProfileParameterDto } from './dto/profile-parameter.dto';
import { toCreatedProfileParameter, toProfileParameterResponse } from './dto/profile-parameter.response';
import { PROFILE_PARAMETER_LIST } from './profile-parameters.list';
import { ProfileParametersService } from './profile-parameters.service';
import { ConditionalOn, rowByIntParams } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

@ConditionalOn({
  table: 'profile_parameter',
  row: rowByIntParams({ profile: 'profileId', parameter: 'parameterId' }),
})
@WireTimes({ rfc3339From: '5.0', specified: true })
@Controller({ path: 'profileparameters', version: ALL_VERSIONS })
@ApiTags('profile parameters')
export class ProfileParametersController {
  constructor(private readonly links: ProfileParametersService) {}

  @Get()
  @ApiOperation({ summary: 'List the assignments of parameters to profiles' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('PROFILE:READ', 'PARAMETER:READ')
  async list(@ListParams(PROFILE_PARAMETER_LIST) query: ListQuery) {
    return (await this.links.list(query)).map(toProfileParameterResponse);
  }

  /**
   * The v3/v4 behaviour in every version (docs/original-behaviour.md#profileparameters): one object →
   * `profileParameter was created.` with it; an array of several → `profileParameters were created.`
   * with `response: null`; `[]` → `No objects were provided in request.`; a request without a body →
   * `no request body supplied`.
   */
  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Assign parameters to profiles' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PROFILE:READ', 'PARAMETER:READ', 'PROFILE:UPDATE')
  async create(
    @ValidBody(ProfileParameterDto, { many: true, required: true })
    { items }: ObjectOrArray<ProfileParameterDto>,
    @CurrentUser() user: CurrentUser,
  ) {
    if (items.length === 0) {
      return ApiResult.alertsOnly(successAlert('No objects were provided in request.'));
    }
    await this.links.create(items, user);
    return items.length === 1
      ? ApiResult.of(toCreatedProfileParameter(items[0]), successAlert('profileParameter was created.'))
      : ApiResult.of(null, successAlert('profileParameters were created.'));
  }

  @Delete(':profileId/:parameterId')
  @ApiOperation({ summary: 'Remove a parameter from a profile' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PROFILE:UPDATE', 'PROFILE:READ', 'PARAMETER:READ')
  async remove(
    @ValidPath('profileId', IntKey()) profileId: number,
    @ValidPath('parameterId', IntKey()) parameterId: number,
    @CurrentUser() user: CurrentUser,
  ) {
    await this.links.remove(profileId, parameterId, user);
    return ApiResult.alertsOnly(successAlert('profileParameter was deleted.'));
  }
}
