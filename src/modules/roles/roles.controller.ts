import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { roleInputOf, RoleV3Dto, RoleV4Dto } from './dto/role.dto';
import { toRoleResponse } from './dto/role.response';
import { ValidBody } from 'src/common/validation/valid-body';
import { ROLE_KEY, type RoleKey, roleKeyOfRequest } from './role-key';
import { ROLE_LIST } from './roles.list';
import { RolesService } from './roles.service';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidQuery } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

const ROLE_BODIES = { '3.0': RoleV3Dto, '4.0': RoleV4Dto };

/** PUT and DELETE name the role as their handlers do: `?name=` on 4.0 and later, `?id=` on 3.x. */
@ConditionalOn({ table: 'role', row: roleKeyOfRequest })
@WireTimes({ rfc3339From: '4.0' })
@Controller({ path: 'roles', version: ALL_VERSIONS })
@ApiTags('roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @ApiOperation({ summary: 'List the roles' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('ROLE:READ')
  async list(@ListParams(ROLE_LIST) query: ListQuery, @RequestedVersion() version: ApiVersion) {
    return (await this.roles.list(query)).map((role) => toRoleResponse(role, version));
  }

  @Post()
  @CreatedFrom('4.0')
  @ApiOperation({ summary: 'Create a role' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('ROLE:CREATE', 'ROLE:READ')
  async create(
    @ValidBody(ROLE_BODIES) body: RoleV3Dto | RoleV4Dto,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const role = await this.roles.create(roleInputOf(body), user);
    return ApiResult.of(toRoleResponse(role, version), successAlert('role was created.'));
  }

  @Put()
  @ApiOperation({ summary: 'Update a role' })
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('ROLE:UPDATE', 'ROLE:READ')
  async update(
    @ValidQuery(ROLE_KEY) key: RoleKey,
    @ValidBody(ROLE_BODIES) body: RoleV3Dto | RoleV4Dto,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const role = await this.roles.update(key, roleInputOf(body), user);
    return ApiResult.of(toRoleResponse(role, version), successAlert('role was updated.'));
  }

  @Delete()
  @ApiOperation({ summary: 'Delete a role' })
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('ROLE:DELETE', 'ROLE:READ')
  async remove(@ValidQuery(ROLE_KEY) key: RoleKey) {
    await this.roles.remove(key);
    return ApiResult.alertsOnly(successAlert('role was deleted.'));
  }
}
