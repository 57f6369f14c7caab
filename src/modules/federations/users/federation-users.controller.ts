import { type DeferredBody, ValidBody } from 'src/common/validation/valid-body';
import { type Assignment, UserAssignmentBody } from 'src/modules/federations/assignment.body';
import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { IntParamPipe } from 'src/common/validation/id.pipe';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { FEDERATION_USER_LIST } from './federation-users.list';
import { FederationUsersService } from './federation-users.service';
import { ConditionalOn, rowByIntParams } from 'src/common/conditional/conditional.decorator';
import { ApiOperation, ApiTags } from '@nestjs/swagger';

@Controller({ path: 'federations/:id/users', version: ALL_VERSIONS })
@ApiTags('federations')
export class FederationUsersController {
  constructor(private readonly users: FederationUsersService) {}

  @Get()
  @ApiOperation({ summary: 'List the users assigned to a federation' })
  @ConditionalOn('federation_tmuser')
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('FEDERATION:READ', 'USER:READ')
  async list(
    @Param('id', new IntParamPipe()) id: number,
    @ListParams(FEDERATION_USER_LIST) query: ListQuery,
  ) {
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
    @Param('id', new IntParamPipe()) id: number,
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
  async remove(
    @Param('id', new IntParamPipe()) id: number,
    @Param('userID', new IntParamPipe('userID')) userId: number,
  ) {
    await this.users.remove(id, userId);
    return ApiResult.alertsOnly(successAlert('federation users was deleted.'));
  }
}
