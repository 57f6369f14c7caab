import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery, pageOffset } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { DEFAULT_LIMIT, DELIVERY_SERVICE_SERVER_LIST } from './delivery-service-servers.list';
import { DeliveryServiceServersService } from './delivery-service-servers.service';
import { type ServerAssignment, ServerAssignmentBody } from './dto/assignment.dto';
import { ValidBody } from 'src/common/validation/valid-body';
import { toAssignmentListResponse } from './dto/delivery-service-server.response';
import { ConditionalOn, rowByIntParams } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntListParam, IntParam, TextParam } from 'src/common/request-input/param-rules';
import { type DeferredInput, ValidPath, ValidQuery } from 'src/common/request-input/request-input';

/**
 * The keys the list reads beside its list conventions: the ids to filter by, comma-separated integers
 * worded as the original rejects them, checked after the list's keys; and `limit`, `page` and
 * `orderby` as sent, which the answer repeats (their values are checked as the list's).
 */
const ASSIGNMENT_QUERY = {
  deliveryserviceids: IntListParam('intList'),
  serverids: IntListParam('intList'),
  limit: TextParam(),
  page: TextParam(),
  orderby: TextParam(),
};

interface AssignmentKeys {
  deliveryserviceids: number[];
  serverids: number[];
  limit?: string;
  page?: string;
  orderby?: string;
}

@ConditionalOn({
  table: 'deliveryservice_server',
  row: rowByIntParams({ deliveryservice: 'dsId', server: 'serverId' }),
})
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'deliveryserviceserver', version: ALL_VERSIONS })
@ApiTags('delivery service servers')
export class DeliveryServiceServersController {
  constructor(private readonly assignments: DeliveryServiceServersService) {}

  /**
   * The original's list: not the usual envelope but `{orderby, response, size, limit}`, paged by 20
   * when no `limit` is given (`limit=-1`: no limit), ordered by delivery service by default.
   */
  @Get()
  @ApiOperation({ summary: 'List the assignments of servers to delivery services' })
  @RawResponse()
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('SERVER:READ', 'DELIVERY-SERVICE:READ')
  async list(
    @ListParams(DELIVERY_SERVICE_SERVER_LIST) query: ListQuery,
    @ValidQuery(ASSIGNMENT_QUERY, { deferred: true }) keys: DeferredInput<AssignmentKeys>,
    @CurrentUser() user: CurrentUser,
  ) {
    const params = keys.read();
    const { deliveryserviceids: deliveryServices, serverids: servers } = params;
    const limitParam = params.limit;
    const page = limitParam === undefined ? { ...query, limit: DEFAULT_LIMIT, offset: 0 } : query;
    if (limitParam === undefined && params.page !== undefined) {
      page.offset = pageOffset(params.page, DEFAULT_LIMIT);
    }
    const rows = await this.assignments.list(user, page, { deliveryServices, servers });
    return toAssignmentListResponse(rows, {
      orderby: params.orderby ?? 'deliveryService',
      size: /^\d+$/.test(params.page ?? '') ? Number(params.page) : 0,
      limit: page.limit ?? -1,
    });
  }

  @Post()
  @ApiOperation({ summary: 'Assign servers to a delivery service' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DELIVERY-SERVICE:READ', 'SERVER:READ', 'SERVER:UPDATE', 'DELIVERY-SERVICE:UPDATE')
  async replace(@ValidBody(ServerAssignmentBody) body: ServerAssignment, @CurrentUser() user: CurrentUser) {
    const assignment = await this.assignments.replace(user, body);
    return ApiResult.of(
      { dsId: assignment.dsId, replace: assignment.replace, servers: assignment.servers },
      successAlert('server assignments complete'),
    );
  }

  @Delete(':dsId/:serverId')
  @ApiOperation({ summary: 'Remove a server from a delivery service' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DELIVERY-SERVICE:READ', 'DELIVERY-SERVICE:UPDATE', 'SERVER:READ', 'SERVER:UPDATE')
  async unassign(
    @ValidPath('serverId', IntParam({ as: 'serverid' })) serverId: number,
    @ValidPath('dsId', IntParam({ as: 'dsid' })) dsId: number,
    @CurrentUser() user: CurrentUser,
  ) {
    await this.assignments.unassign(user, dsId, serverId);
    return ApiResult.alertsOnly(successAlert('Server unlinked from delivery service.'));
  }
}
