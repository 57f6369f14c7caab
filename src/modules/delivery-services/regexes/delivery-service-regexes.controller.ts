import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ConditionalOn, rowByIntParams } from 'src/common/conditional/conditional.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { type DeferredBody, ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { DELIVERY_SERVICE_REGEX_LIST } from './delivery-service-regexes.list';
import { DeliveryServiceRegexesService } from './delivery-service-regexes.service';
import { DeliveryServiceRegexDto } from './delivery-service-regex.dto';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

const CREATED = 'Delivery service regex creation was successful.';

/** A regex write's precondition is checked against the regex's row (its `last_updated`). */
const REGEX_ROW = { table: 'regex', row: rowByIntParams({ id: 'regexid' }) };

/**
 * GET deliveryservices_regexes (docs/original-behaviour.md#deliveryservices-regexes). If-Modified-Since
 * is answered from the last change of the tables the answer is built from (docs/decisions.md#d228).
 */
@Controller({ path: 'deliveryservices_regexes', version: ALL_VERSIONS })
@ApiTags('delivery service regexes')
@ConditionalOn(['deliveryservice', 'deliveryservice_regex', 'regex', 'type'])
export class DeliveryServicesRegexesController {
  constructor(private readonly regexes: DeliveryServiceRegexesService) {}

  @Get()
  @ApiOperation({ summary: 'List the regular expressions of every delivery service' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DELIVERY-SERVICE:READ')
  list(@CurrentUser() user: CurrentUser) {
    return this.regexes.listAll(user);
  }
}

/** deliveryservices/{id}/regexes[/{rid}] (docs/original-behaviour.md#deliveryservices-regexes). */
@Controller({ path: 'deliveryservices/:dsid/regexes', version: ALL_VERSIONS })
@ApiTags('delivery service regexes')
export class DeliveryServiceRegexesController {
  constructor(private readonly regexes: DeliveryServiceRegexesService) {}

  @Get()
  @ApiOperation({ summary: 'List the regular expressions of a delivery service' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DELIVERY-SERVICE:READ', 'TYPE:READ')
  list(
    @ValidPath('dsid', IntParam()) dsId: number,
    @ListParams(DELIVERY_SERVICE_REGEX_LIST) query: ListQuery,
    @CurrentUser() user: CurrentUser,
  ) {
    return this.regexes.listOf(dsId, query, user);
  }

  @Post()
  @ApiOperation({ summary: 'Add a regular expression to a delivery service' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DELIVERY-SERVICE:UPDATE', 'DELIVERY-SERVICE:READ', 'TYPE:READ')
  async create(
    @ValidPath('dsid', IntParam()) dsId: number,
    @ValidBody(DeliveryServiceRegexDto, { deferred: true }) body: DeferredBody<DeliveryServiceRegexDto>,
    @CurrentUser() user: CurrentUser,
  ) {
    return ApiResult.of(await this.regexes.create(dsId, body, user), successAlert(CREATED));
  }

  /** The original answers its update with the creation's text. */
  @Put(':regexid')
  @ApiOperation({ summary: 'Update a regular expression of a delivery service' })
  @ConditionalOn(REGEX_ROW)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DELIVERY-SERVICE:UPDATE', 'DELIVERY-SERVICE:READ', 'TYPE:READ')
  async update(
    @ValidPath('dsid', IntParam()) dsId: number,
    @ValidPath('regexid', IntParam()) regexId: number,
    @ValidBody(DeliveryServiceRegexDto, { deferred: true }) body: DeferredBody<DeliveryServiceRegexDto>,
    @CurrentUser() user: CurrentUser,
  ) {
    return ApiResult.of(await this.regexes.update(dsId, regexId, body, user), successAlert(CREATED));
  }

  @Delete(':regexid')
  @ApiOperation({ summary: 'Delete a regular expression of a delivery service' })
  @ConditionalOn(REGEX_ROW)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DELIVERY-SERVICE:UPDATE', 'DELIVERY-SERVICE:READ', 'TYPE:READ')
  async remove(
    @ValidPath('dsid', IntParam()) dsId: number,
    @ValidPath('regexid', IntParam()) regexId: number,
    @CurrentUser() user: CurrentUser,
  ) {
    await this.regexes.remove(dsId, regexId, user);
    return ApiResult.alertsOnly(successAlert('deliveryservice_regex was deleted.'));
  }
}
