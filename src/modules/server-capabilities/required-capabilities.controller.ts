import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { type Alert, ApiResult, successAlert, warningAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { type ApiVersion, versionsFrom } from 'src/common/versioning/api-version';
import { RequiredCapabilityDto } from './dto/required-capability.dto';
import { toRequiredCapabilityResponse } from './dto/required-capability.response';
import { INT_KEY, rowByQuery, TEXT_KEY } from './query-keys';
import { RequiredCapabilitiesService } from './required-capabilities.service';
import { REQUIRED_CAPABILITY_LIST } from './server-capabilities.list';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ValidQuery } from 'src/common/request-input/request-input';

/** The warning the original's 4.x handlers of this route put before every other alert of a success. */
export const DEPRECATED_TEXT =
  'This endpoint is deprecated, please use the deliveryservices endpoint instead';

function deprecation(version: ApiVersion): Alert[] {
  return version.atLeast('4.0') ? [warningAlert(DEPRECATED_TEXT)] : [];
}

/**
 * `deliveryservices_required_capabilities` (3.0–4.1; the original removed it from 5.0, where a
 * delivery service's `requiredCapabilities` field says it): the original's generic handlers, tag
 * `deliveryservice.RequiredCapability`, deprecated on 4.x
 * (docs/original-behaviour.md#deliveryservices-required-capabilities).
 */
@ConditionalOn({
  table: 'deliveryservices_required_capability',
  row: rowByQuery({
    deliveryservice_id: ['deliveryServiceID', 'int'],
    required_capability: ['requiredCapability', 'string'],
  }),
})
@Controller({ path: 'deliveryservices_required_capabilities', version: versionsFrom('3.0', '4.1') })
@ApiTags('delivery service required capabilities')
export class RequiredCapabilitiesController {
  constructor(private readonly required: RequiredCapabilitiesService) {}

  @Get()
  @ApiOperation({ summary: 'List the server capabilities that delivery services require (deprecated)' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DELIVERY-SERVICE:READ')
  async list(
    @ListParams(REQUIRED_CAPABILITY_LIST) query: ListQuery,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const rows = (await this.required.list(query, user)).map(toRequiredCapabilityResponse);
    return ApiResult.of(rows, ...deprecation(version));
  }

  @Post()
  @ApiOperation({ summary: 'Make a delivery service require a server capability (deprecated)' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DELIVERY-SERVICE:READ', 'DELIVERY-SERVICE:UPDATE')
  async create(
    @ValidBody(RequiredCapabilityDto) dto: RequiredCapabilityDto,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const row = await this.required.create(dto, user);
    return ApiResult.of(
      toRequiredCapabilityResponse(row),
      ...deprecation(version),
      successAlert('deliveryservice.RequiredCapability was created.'),
    );
  }

  @Delete()
  @ApiOperation({ summary: 'Remove a required server capability from a delivery service (deprecated)' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DELIVERY-SERVICE:READ', 'DELIVERY-SERVICE:UPDATE')
  async remove(
    @ValidQuery({ deliveryServiceID: INT_KEY, requiredCapability: TEXT_KEY })
    {
      deliveryServiceID: deliveryServiceId,
      requiredCapability: capability,
    }: {
      deliveryServiceID: number;
      requiredCapability: string;
    },
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    await this.required.remove(deliveryServiceId, capability, user);
    return ApiResult.alertsOnly(
      ...deprecation(version),
      successAlert('deliveryservice.RequiredCapability was deleted.'),
    );
  }
}
