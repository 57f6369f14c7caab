import { Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { ValidBody } from 'src/common/validation/valid-body';
import { UserV3Dto, UserV4Dto } from './dto/user.dto';
import { toUserResponse } from './dto/user.response';
import { USER_LIST } from './users.list';
import { UsersService } from './users.service';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

const USER_BODIES = { '3.0': UserV3Dto, '4.0': UserV4Dto };

/** Users have no DELETE, as in the original. */
@ConditionalOn('tm_user')
@WireTimes({ rfc3339From: '4.0' })
@Controller({ path: 'users', version: ALL_VERSIONS })
@ApiTags('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'List the users' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('USER:READ')
  async list(
    @ListParams(USER_LIST) query: ListQuery,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    return (await this.users.list(query, user)).map((u) => toUserResponse(u, version));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Show a user' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('USER:READ')
  async get(
    @ValidPath('id', IntKey()) id: number,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    return [toUserResponse(await this.users.findVisible(id, user), version)];
  }

  @Post()
  @CreatedFrom('4.0')
  @ApiOperation({ summary: 'Create a user' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('USER:CREATE', 'USER:READ')
  async create(
    @ValidBody(USER_BODIES) body: UserV3Dto | UserV4Dto,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const created = await this.users.create(body, user);
    return ApiResult.of(toUserResponse(created, version), successAlert('user was created.'));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a user' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('USER:UPDATE', 'USER:READ')
  async update(
    @ValidPath('id', IntKey()) id: number,
    @ValidBody(USER_BODIES) body: UserV3Dto | UserV4Dto,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const updated = await this.users.update(id, body, user);
    return ApiResult.of(toUserResponse(updated, version), successAlert('user was updated.'));
  }
}
