import { type DeferredBody, ValidBody } from 'src/common/validation/valid-body';
import { type Assignment, UserAssignmentBody } from 'src/modules/federations/assignment.dto';
import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { FEDERATION_USER_LIST } from './federation-users.list';
import { FederationUsersService } from './federation-users.service';
import { ConditionalOn, rowByIntParams } from 'src/common/conditional/conditional.decorator';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

@Controller({ path: 'federations/:id/users', version: ALL_VERSIONS })
@ApiTags('federations')
export class FederationUsersController {
  constructor(private readonly users: FederationUsersService) {}

  @Get()
  @ApiOperation({ summary: 'List the users assigned to a federation' })
  @ConditionalOn('federation_tmuser')
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('FEDERATION:READ', 'USER:READ')
  async list(@ValidPath('id', IntParam()) id: number, @ListParams(FEDERATION_USER_LIST) query: ListQuery) {
    return (await this.users.list(id, query)).map((u) => ({
      company: u.company,
      email: u.email,
      fullName: u.fullName,
      id: u.id,
      role: u.role,
      username: u.username,
    }));
  }

  @Post()
  @ApiOperation({ summary: 'Assign users to a federation' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('FEDERATION:UPDATE', 'USER:READ', 'FEDERATION:READ')
  async assign(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(UserAssignmentBody, { deferred: true }) body: DeferredBody<Assignment>,
  ) {
    const { assignment, federation } = await this.users.assign(id, body);
    const count = assignment.ids?.length ?? 0;
    return ApiResult.of(
      { userIds: assignment.ids, replace: assignment.replace },
      successAlert(`${count} user(s) were assigned to the ${federation.cname} federation`),
    );
  }

  @Delete(':userID')
  @ApiOperation({ summary: 'Remove a user from a federation' })
  @ConditionalOn({ table: 'federation_tmuser', row: rowByIntParams({ federation: 'id', tm_user: 'userID' }) })
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('FEDERATION:UPDATE', 'FEDERATION:READ', 'USER:READ')
  async remove(@ValidPath('id', IntParam()) id: number, @ValidPath('userID', IntParam()) userId: number) {
    await this.users.remove(id, userId);
    return ApiResult.alertsOnly(successAlert('federation users was deleted.'));
  }
}
