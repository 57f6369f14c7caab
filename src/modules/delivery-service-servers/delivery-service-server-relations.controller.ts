import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { holdsPermissionNamed } from 'src/common/types/current-user';
import { type DeferredBody, ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { DeliveryServicesService } from 'src/modules/delivery-services/core/delivery-services.service';
import { toDeliveryServiceResponse } from 'src/modules/delivery-services/core/delivery-service.response';
import { ServersService } from 'src/modules/servers/servers.service';
import {
  assignedToDeliveryService,
  assignedToServer,
  eligibleForDeliveryService,
  SERVER_DELIVERY_SERVICE_LIST,
} from './delivery-service-servers.list';
import { DeliveryServiceServersService } from './delivery-service-servers.service';
import {
  DeliveryServiceIdsBody,
  type HostNameAssignment,
  HostNameAssignmentBody,
} from './dto/assignment.dto';
import { toDsServerResponse } from './dto/ds-server.response';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { BoolParam, IntParam, PathText, intRule } from 'src/common/request-input/param-rules';
import { DeferredInput, ValidPath, ValidQuery } from 'src/common/request-input/request-input';

/**
 * Who may read servers' ILO passwords in these lists: before 5.0 the admin level, on 5.0 the
 * SECURE-SERVER:READ permission (docs/original-behaviour.md#deliveryservice-servers).
 */
function showsIloPassword(user: CurrentUser, version: ApiVersion): boolean {
  return version.atLeast('5.0')
    ? holdsPermissionNamed(user, 'SECURE-SERVER:READ')
    : user.privLevel >= Number(PrivLevel.Admin);
}

/** A server query ordered by id, filtered by one condition on the delivery service's id. */
function serversOf(dsId: number, condition: (param: string) => string): ListQuery {
  return {
    filters: [{ column: 'server.id', value: dsId, condition }],
    order: { column: 'server.id', direction: 'ASC' },
  };
}

/** The servers of a delivery service: assigned, eligible, and assigning them by host name. */
@Controller({ path: 'deliveryservices', version: ALL_VERSIONS })
@ApiTags('delivery service servers')
export class DeliveryServiceServerListsController {
  constructor(
    private readonly assignments: DeliveryServiceServersService,
    private readonly servers: ServersService,
  ) {}

  /** Every server assigned to the delivery service; an unknown one has none (no tenancy check, as the original). */
  @Get(':id/servers')
  @ApiOperation({ summary: 'List the servers assigned to a delivery service' })
  @WireTimes({ rfc3339From: '5.0' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions(
    'CACHE-GROUP:READ',
    'CDN:READ',
    'TYPE:READ',
    'PROFILE:READ',
    'DELIVERY-SERVICE:READ',
    'SERVER:READ',
  )
  async assigned(
    @ValidPath('id', IntParam()) id: number,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const { servers } = await this.servers.list(serversOf(id, assignedToDeliveryService), user.tenantId);
    const showIloPassword = showsIloPassword(user, version);
    return servers.map((loaded) => toDsServerResponse({ loaded, showIloPassword }, version));
  }

  @Get(':id/servers/eligible')
  @ApiOperation({ summary: 'List the servers eligible for assignment to a delivery service' })
  @WireTimes({ rfc3339From: '5.0' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DELIVERY-SERVICE:READ', 'SERVER:READ', 'CACHE-GROUP:READ', 'TYPE:READ', 'CDN:READ')
  async eligible(
    @ValidPath('id', IntParam()) id: number,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    await this.assignments.checkEligibleListing(user, id);
    const { servers } = await this.servers.list(serversOf(id, eligibleForDeliveryService), user.tenantId);
    const showIloPassword = showsIloPassword(user, version);
    return servers.map((loaded) => toDsServerResponse({ loaded, showIloPassword }, version));
  }

  /** Answers `{serverNames, xmlId}` without an alert, as the original. */
  @Post(':xmlId/servers')
  @ApiOperation({ summary: 'Assign servers to a delivery service by host name' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DELIVERY-SERVICE:UPDATE', 'SERVER:UPDATE', 'DELIVERY-SERVICE:READ', 'SERVER:READ')
  async assignByHostName(
    @ValidPath('xmlId', PathText()) xmlId: string,
    @ValidBody(HostNameAssignmentBody, { deferred: true }) body: DeferredBody<HostNameAssignment>,
    @CurrentUser() user: CurrentUser,
  ) {
    const assigned = await this.assignments.assignByHostNames(user, xmlId, body);
    return ApiResult.of({ serverNames: assigned.serverNames, xmlId: assigned.xmlId });
  }
}

/** The delivery services of a server: listed, and assigned in bulk. */
@Controller({ path: 'servers', version: ALL_VERSIONS })
@ApiTags('delivery service servers')
export class ServerDeliveryServicesController {
  constructor(
    private readonly assignments: DeliveryServiceServersService,
    private readonly deliveryServices: DeliveryServicesService,
  ) {}

  /** The delivery services within the user's tenancy the server is assigned to, in each version's shape. */
  @Get(':id/deliveryservices')
  @ApiOperation({ summary: 'List the delivery services assigned to a server' })
  @WireTimes({ rfc3339From: '5.0', specified: true })
  @ConditionalOn('deliveryservice_server')
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DELIVERY-SERVICE:READ', 'SERVER:READ')
  async list(
    @ValidPath('id', intRule('unnamedFilter')) id: number,
    @ListParams(SERVER_DELIVERY_SERVICE_LIST) query: ListQuery,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    await this.assignments.serverType(id);
    query.filters.push({ column: 'ds.id', value: id, condition: assignedToServer });
    const views = await this.deliveryServices.list(query, user);
    return views.map((view) => toDeliveryServiceResponse(view, version));
  }

  /** Body: the delivery service ids; `replace` (required, Go's boolean syntax) drops the others first. */
  @Post(':id/deliveryservices')
  @ApiOperation({ summary: 'Assign delivery services to a server' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DELIVERY-SERVICE:READ', 'SERVER:READ', 'DELIVERY-SERVICE:UPDATE', 'SERVER:UPDATE')
  async assign(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(DeliveryServiceIdsBody) dsIds: number[],
    @ValidQuery('replace', BoolParam('parseBool'), { deferred: true }) replaceParam: DeferredInput<boolean>,
    @CurrentUser() user: CurrentUser,
  ) {
    const replace = replaceParam.read();
    const assigned = await this.assignments.assignToServer(user, id, dsIds, replace);
    return ApiResult.of(
      { serverId: assigned.serverId, dsIds: assigned.dsIds, replace: assigned.replace },
      successAlert('successfully assigned dses to server'),
    );
  }
}
