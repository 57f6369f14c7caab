import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { type ApiVersion, versionsFrom } from 'src/common/versioning/api-version';
import { DELIVERY_SERVICE_REQUEST_LIST } from './delivery-service-requests.list';
import {
  type DeliveryServiceShape,
  DeliveryServiceRequestsService,
} from './delivery-service-requests.service';
import { toInput } from 'src/modules/delivery-services/core/delivery-service.dto';
import { toDeliveryServiceResponse } from 'src/modules/delivery-services/core/delivery-service.response';
import {
  AssignmentBody,
  DeliveryServiceRequestBody,
  StatusChangeBody,
} from './dto/delivery-service-request.dto';
import { toDeliveryServiceRequestResponse } from './dto/delivery-service-request.response';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey, IntParam } from 'src/common/request-input/param-rules';
import { ValidPath, ValidQuery } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

/** `?id=`: the generic handlers' key before 4.0, the hand-written handlers' from 4.0 on. */
const QUERY_ID = { '3.0': IntKey(), '4.0': IntParam() };

/** A delivery service as the requested version writes and shows it. */
const deliveryServiceShape = (version: ApiVersion): DeliveryServiceShape => ({
  write: (body) => toInput(body, version),
  show: (view) => toDeliveryServiceResponse(view, version),
});

/**
 * `deliveryservice_requests` on 4.0 and later (docs/original-behaviour.md#deliveryservice-requests):
 * list, create, update and delete by `?id=`.
 */
@ConditionalOn('deliveryservice_request')
@Controller({ path: 'deliveryservice_requests', version: versionsFrom('4.0') })
@ApiTags('delivery service requests')
export class DeliveryServiceRequestsController {
  constructor(private readonly requests: DeliveryServiceRequestsService) {}

  @Get()
  @ApiOperation({ summary: 'List the delivery service requests' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DS-REQUEST:READ', 'DELIVERY-SERVICE:READ', 'USER:READ')
  async list(
    @ListParams(DELIVERY_SERVICE_REQUEST_LIST) query: ListQuery,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    return (await this.requests.list(query, user, deliveryServiceShape(version))).map(
      toDeliveryServiceRequestResponse,
    );
  }

  @Post()
  @CreatedFrom('4.0')
  @ApiOperation({ summary: 'Create a delivery service request' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('DS-REQUEST:CREATE', 'DELIVERY-SERVICE:READ', 'USER:READ')
  async create(
    @ValidBody(DeliveryServiceRequestBody) body: DeliveryServiceRequestBody,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const row = await this.requests.create(body, user, deliveryServiceShape(version));
    return ApiResult.of(
      toDeliveryServiceRequestResponse(row),
      successAlert('Delivery Service request created'),
    );
  }

  @Put()
  @ApiOperation({ summary: 'Update a delivery service request' })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('DS-REQUEST:UPDATE', 'DELIVERY-SERVICE:READ', 'USER:READ')
  async update(
    @ValidQuery('id', QUERY_ID) id: number,
    @ValidBody(DeliveryServiceRequestBody) body: DeliveryServiceRequestBody,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const row = await this.requests.update(id, body, user, deliveryServiceShape(version));
    return ApiResult.of(
      toDeliveryServiceRequestResponse(row),
      successAlert(`Delivery Service Request #${id} updated`),
    );
  }

  @Delete()
  @ApiOperation({ summary: 'Delete a delivery service request' })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('DS-REQUEST:DELETE', 'DELIVERY-SERVICE:READ', 'USER:READ')
  async remove(
    @ValidQuery('id', QUERY_ID) id: number,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const row = await this.requests.remove(id, user, deliveryServiceShape(version));
    return ApiResult.of(
      toDeliveryServiceRequestResponse(row),
      successAlert(`Delivery Service Request #${id} deleted`),
    );
  }
}

/** The assignee and the status of one request (docs/original-behaviour.md#deliveryservice-requests). */
@ConditionalOn('deliveryservice_request')
@Controller({ path: 'deliveryservice_requests/:id', version: versionsFrom('4.0') })
@ApiTags('delivery service requests')
export class DeliveryServiceRequestWorkflowController {
  constructor(private readonly requests: DeliveryServiceRequestsService) {}

  @Get('assign')
  @ApiOperation({ summary: 'Show the assignee of a delivery service request' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DS-REQUEST:READ', 'USER:READ')
  async assignee(@ValidPath('id', IntParam()) id: number, @CurrentUser() user: CurrentUser) {
    return (await this.requests.get(id, user)).assignee;
  }

  @Put('assign')
  @ApiOperation({ summary: 'Assign or unassign a delivery service request' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DS-REQUEST:UPDATE', 'DS-REQUEST:READ', 'USER:READ')
  async assign(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(AssignmentBody) body: AssignmentBody,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const { row, message } = await this.requests.assign(id, body, user, deliveryServiceShape(version));
    return ApiResult.of(toDeliveryServiceRequestResponse(row), successAlert(message));
  }

  @Get('status')
  @ApiOperation({ summary: 'Show the status of a delivery service request' })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('DS-REQUEST:READ')
  async status(@ValidPath('id', IntParam()) id: number, @CurrentUser() user: CurrentUser) {
    return (await this.requests.get(id, user)).status;
  }

  @Put('status')
  @ApiOperation({ summary: 'Change the status of a delivery service request' })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('DS-REQUEST:UPDATE', 'DS-REQUEST:READ')
  async changeStatus(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(StatusChangeBody) body: StatusChangeBody,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const { row, message } = await this.requests.changeStatus(
      id,
      body.status,
      user,
      deliveryServiceShape(version),
    );
    return ApiResult.of(toDeliveryServiceRequestResponse(row), successAlert(message));
  }
}
