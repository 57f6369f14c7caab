import { type DeferredBody, ValidBody } from 'src/common/validation/valid-body';
import { type Assignment, DeliveryServiceAssignmentBody } from 'src/modules/federations/assignment.dto';
import type { Permission } from 'src/common/authorization/permissions';
import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { FEDERATION_DS_LIST } from './federation-deliveryservices.list';
import { FederationDeliveryServicesService } from './federation-deliveryservices.service';
import { ConditionalOn, rowByIntParams } from 'src/common/conditional/conditional.decorator';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

const WRITE_PERMISSIONS: Permission[] = [
  'FEDERATION:UPDATE',
  'DELIVERY-SERVICE:UPDATE',
  'FEDERATION:READ',
  'DELIVERY-SERVICE:READ',
];

@Controller({ path: 'federations/:id/deliveryservices', version: ALL_VERSIONS })
@ApiTags('federations')
export class FederationDeliveryServicesController {
  constructor(private readonly deliveryServices: FederationDeliveryServicesService) {}

  @Get()
  @ApiOperation({ summary: 'List the delivery services assigned to a federation' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('FEDERATION:READ', 'DELIVERY-SERVICE:READ')
  async list(@ValidPath('id', IntParam()) id: number, @ListParams(FEDERATION_DS_LIST) query: ListQuery) {
    return (await this.deliveryServices.list(id, query)).map((ds) => ({
      id: ds.id,
      cdn: ds.cdn,
      type: ds.type,
      xmlId: ds.xmlId,
    }));
  }

  @Post()
  @ApiOperation({ summary: 'Assign delivery services to a federation' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions(...WRITE_PERMISSIONS)
  async assign(
    @ValidPath('id', IntParam()) id: number,
    @ValidBody(DeliveryServiceAssignmentBody, { deferred: true }) body: DeferredBody<Assignment>,
  ) {
    const assignment = await this.deliveryServices.assign(id, body);
    return ApiResult.of(
      { dsIds: assignment.ids, replace: assignment.replace },
      successAlert(
        `${assignment.ids?.length ?? 0} delivery service(s) were assigned to the federation ${id}`,
      ),
    );
  }

  @Delete(':dsID')
  @ApiOperation({ summary: 'Remove a delivery service from a federation' })
  @ConditionalOn({
    table: 'federation_deliveryservice',
    row: rowByIntParams({ federation: 'id', deliveryservice: 'dsID' }),
  })
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions(...WRITE_PERMISSIONS)
  async remove(@ValidPath('id', IntParam()) id: number, @ValidPath('dsID', IntParam()) dsId: number) {
    await this.deliveryServices.remove(id, dsId);
    return ApiResult.alertsOnly(successAlert('federation deliveryservice was deleted.'));
  }
}
