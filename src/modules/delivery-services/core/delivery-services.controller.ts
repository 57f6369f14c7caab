import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, EmptyBody, infoAlert, successAlert, warningAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion, versionsFrom } from 'src/common/versioning/api-version';
import { DS_LISTS } from './delivery-services.list';
import { DeliveryServicesService } from './delivery-services.service';
import { DELIVERY_SERVICE_BODIES, type DeliveryServiceBody, toInput } from './delivery-service.dto';
import { toDeliveryServiceResponse } from './delivery-service.response';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireCompatService } from 'src/common/wire/wire-compat.service';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey, IntParam } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

@ConditionalOn('deliveryservice')
@WireTimes({ rfc3339From: '5.0', specified: true })
@Controller({ path: 'deliveryservices', version: ALL_VERSIONS })
@ApiTags('delivery services')
export class DeliveryServicesController {
  constructor(
    private readonly deliveryServices: DeliveryServicesService,
    private readonly wire: WireCompatService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the delivery services' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DELIVERY-SERVICE:READ')
  async list(
    @ListParams(DS_LISTS) query: ListQuery,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const views = await this.deliveryServices.list(query, user);
    return views.map((view) => toDeliveryServiceResponse(view, version));
  }

  /** 200 (docs/decisions.md#d2), TLS warnings first; an array of one before 5.0, the object on 5.0. */
  @Post()
  @CreatedFrom('4.0')
  @ApiOperation({ summary: 'Create a delivery service' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DELIVERY-SERVICE:CREATE', 'DELIVERY-SERVICE:READ', 'CDN:READ', 'TYPE:READ')
  async create(
    @ValidBody(DELIVERY_SERVICE_BODIES) body: DeliveryServiceBody,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const { view, warnings } = await this.deliveryServices.create(toInput(body, version), user);
    const ds = toDeliveryServiceResponse(view, version);
    const alerts = [
      ...(version.atLeast('4.0') ? warnings.map(warningAlert) : []),
      successAlert('Delivery Service creation was successful'),
    ];
    return ApiResult.of(version.atLeast('5.0') ? ds : [ds], ...alerts);
  }

  /**
   * 200 with an empty body (docs/decisions.md#d5); with WIRE_COMPAT=traffic-ops the original's answer,
   * shaped as the create's (docs/decisions.md#d5a).
   */
  @Put(':id')
  @ApiOperation({ summary: 'Update a delivery service' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DELIVERY-SERVICE:UPDATE', 'DELIVERY-SERVICE:READ', 'CDN:READ', 'TYPE:READ')
  async update(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(DELIVERY_SERVICE_BODIES) body: DeliveryServiceBody,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    // The default answer is empty: the updated delivery service is read only for the original's.
    const { view, warnings } = await this.deliveryServices.update(id, toInput(body, version), user, {
      view: this.wire.original,
    });
    if (!view) {
      return new EmptyBody();
    }
    const ds = toDeliveryServiceResponse(view, version);
    const alerts = [
      ...(version.atLeast('4.0') ? warnings.map(warningAlert) : []),
      successAlert('Delivery Service update was successful'),
    ];
    return ApiResult.of(version.atLeast('5.0') ? ds : [ds], ...alerts);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a delivery service' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DELIVERY-SERVICE:DELETE', 'DELIVERY-SERVICE:READ', 'CDN:READ', 'TYPE:READ')
  async remove(@ValidPath('id', IntKey()) id: number, @CurrentUser() user: CurrentUser) {
    await this.deliveryServices.remove(id, user);
    return ApiResult.alertsOnly(
      successAlert('ds was deleted.'),
      infoAlert(
        'Perform a CDN snapshot then queue updates on all servers in the cdn for the changes to take effect.',
      ),
    );
  }
}

/**
 * GET /deliveryservices/{id}, which API 3.x still has (removed in 4.0): the list filtered by id,
 * so a delivery service out of the user's tenancy or missing answers an empty array, as the original.
 */
@ConditionalOn('deliveryservice')
@WireTimes({ rfc3339From: '5.0', specified: true })
@Controller({ path: 'deliveryservices', version: versionsFrom('3.0', '3.1') })
@ApiTags('delivery services')
export class DeliveryServiceByIdController {
  constructor(private readonly deliveryServices: DeliveryServicesService) {}

  @Get(':id')
  @ApiOperation({ summary: 'Show a delivery service' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DELIVERY-SERVICE:READ')
  async get(
    @ValidPath('id', IntKey()) id: number,
    @ListParams(DS_LISTS) query: ListQuery,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    query.filters.push({ column: 'ds.id', value: id });
    const views = await this.deliveryServices.list(query, user);
    return views.map((view) => toDeliveryServiceResponse(view, version));
  }
}
