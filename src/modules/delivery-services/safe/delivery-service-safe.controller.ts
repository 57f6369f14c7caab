import { Controller, Put } from '@nestjs/common';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { DeliveryServicesService } from 'src/modules/delivery-services/core/delivery-services.service';
import { toDeliveryServiceResponse } from 'src/modules/delivery-services/core/delivery-service.response';
import { type SafeUpdate, SafeUpdateV3Body, SafeUpdateV4Body } from './safe-update.dto';
import { type DeferredBody, ValidBody } from 'src/common/validation/valid-body';
import { WireCompatService } from 'src/common/wire/wire-compat.service';
import { WireTimes } from 'src/common/wire/wire-times';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

/**
 * PUT /deliveryservices/{id}/safe (docs/original-behaviour.md#deliveryservices-safe): any signed-in
 * user within tenancy may change the display name, info URL and long description. The response is an
 * array holding the record on every version (docs/decisions.md#d6), with RFC 3339 timestamps on 5.0 (#d4).
 */
@ConditionalOn('deliveryservice')
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'deliveryservices', version: ALL_VERSIONS })
@ApiTags('delivery services')
export class DeliveryServiceSafeController {
  constructor(
    private readonly deliveryServices: DeliveryServicesService,
    private readonly wire: WireCompatService,
  ) {}

  @Put(':id/safe')
  @ApiOperation({ summary: "Update a delivery service's display name, info URL and long description" })
  @RequirePrivLevel(PrivLevel.LoggedIn)
  @RequirePermissions('DELIVERY-SERVICE-SAFE:UPDATE', 'DELIVERY-SERVICE:READ', 'TYPE:READ')
  async update(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody({ '3.0': SafeUpdateV3Body, '4.0': SafeUpdateV4Body }, { deferred: true })
    body: DeferredBody<SafeUpdate>,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const view = await this.deliveryServices.updateSafe(id, body, user);
    const ds = toDeliveryServiceResponse(view, version);
    // The specification answers an array of one on every version; the original's 5.0 the record
    // itself (docs/decisions.md#d5a).
    const response = this.wire.original && version.atLeast('5.0') ? ds : [ds];
    return ApiResult.of(response, successAlert('Delivery Service safe update successful.'));
  }
}
