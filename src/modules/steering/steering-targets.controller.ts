import { ValidBody } from 'src/common/validation/valid-body';
import { SteeringTargetBody, type SteeringTargetFields } from './dto/steering-target.dto';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { toSteeringTargetResponse } from './dto/steering-target.response';
import { intRule } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { STEERING_TARGET_LIST } from './steering-targets.list';
import { SteeringTargetsService } from './steering-targets.service';
import { ConditionalOn, rowByIntParams } from 'src/common/conditional/conditional.decorator';
import { ApiOperation, ApiTags } from '@nestjs/swagger';

/** The path's ids as the original's generic handlers word them: reads filter, writes parse keys. */
const READ = intRule('filter');
const CREATE_DS = intRule('steeringCreate');
const KEY = intRule('generic');

/**
 * Steering targets (traffic_ops_golang/steeringtargets, routes.go): reads at level 10, writes at
 * the Steering/Portal level 15, permissions as the original's 4.x routes list them.
 */
@ConditionalOn({
  table: 'steering_target',
  row: rowByIntParams({ deliveryservice: 'deliveryservice', target: 'target' }),
  modifiedText: 'resource was modified',
})
@Controller({ path: 'steering/:deliveryservice/targets', version: ALL_VERSIONS })
@ApiTags('steering')
export class SteeringTargetsController {
  constructor(private readonly targets: SteeringTargetsService) {}

  @Get()
  @ApiOperation({ summary: 'List the targets of a steering delivery service' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('STEERING:READ', 'DELIVERY-SERVICE:READ', 'TYPE:READ')
  async list(
    @ValidPath('deliveryservice', READ) dsId: number,
    @ListParams(STEERING_TARGET_LIST) query: ListQuery,
    @CurrentUser() user: CurrentUser,
  ) {
    return (await this.targets.list(dsId, query, user)).map(toSteeringTargetResponse);
  }

  /** As the original's read handler: an array of the one target, empty when there is none. */
  @Get(':target')
  @ApiOperation({ summary: 'Show a target of a steering delivery service' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('STEERING:READ', 'DELIVERY-SERVICE:READ', 'TYPE:READ')
  async one(
    @ValidPath('deliveryservice', READ) dsId: number,
    @ValidPath('target', READ) targetId: number,
    @ListParams(STEERING_TARGET_LIST) query: ListQuery,
    @CurrentUser() user: CurrentUser,
  ) {
    return (await this.targets.list(dsId, query, user, targetId)).map(toSteeringTargetResponse);
  }

  @Post()
  @ApiOperation({ summary: 'Add a target to a steering delivery service' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('STEERING:CREATE', 'STEERING:READ', 'DELIVERY-SERVICE:READ', 'TYPE:READ')
  async create(
    @ValidPath('deliveryservice', CREATE_DS) dsId: number,
    @ValidBody(SteeringTargetBody) body: SteeringTargetFields,
    @CurrentUser() user: CurrentUser,
  ) {
    const row = await this.targets.create(dsId, body, user);
    return ApiResult.of(toSteeringTargetResponse(row), successAlert('steeringtarget was created.'));
  }

  @Put(':target')
  @ApiOperation({ summary: 'Update a target of a steering delivery service' })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('STEERING:UPDATE', 'STEERING:READ', 'DELIVERY-SERVICE:READ', 'TYPE:READ')
  async update(
    @ValidPath('deliveryservice', KEY) dsId: number,
    @ValidPath('target', KEY) targetId: number,
    @ValidBody(SteeringTargetBody) body: SteeringTargetFields,
    @CurrentUser() user: CurrentUser,
  ) {
    const row = await this.targets.update(dsId, targetId, body, user);
    return ApiResult.of(toSteeringTargetResponse(row), successAlert('steeringtarget was updated.'));
  }

  @Delete(':target')
  @ApiOperation({ summary: 'Delete a target of a steering delivery service' })
  @RequirePrivLevel(PrivLevel.Portal)
  @RequirePermissions('STEERING:DELETE', 'STEERING:READ', 'DELIVERY-SERVICE:READ', 'TYPE:READ')
  async remove(
    @ValidPath('deliveryservice', KEY) dsId: number,
    @ValidPath('target', KEY) targetId: number,
    @CurrentUser() user: CurrentUser,
  ) {
    await this.targets.remove(dsId, targetId, user);
    return ApiResult.alertsOnly(successAlert('steeringtarget was deleted.'));
  }
}
