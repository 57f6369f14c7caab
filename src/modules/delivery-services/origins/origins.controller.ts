import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { perVersion } from 'src/common/versioning/per-version';
import { ORIGIN_BODIES, OriginV3Dto, OriginV5Dto } from './origin.dto';
import { toOriginResponse } from './origin.response';
import { ORIGIN_LIST } from './origins.list';
import { type OriginRules, OriginsService } from './origins.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey, IntParam } from 'src/common/request-input/param-rules';
import { ValidQuery } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';
import { WireTimes } from 'src/common/wire/wire-times';

/** `?id=`: the generic handlers' key before 5.0, the hand-written handlers' from 5.0 on. */
const QUERY_ID = { '3.0': IntKey(), '5.0': IntParam() };

/** What 5.0 changed: the text of a missing origin and the order of a delete's checks. */
const ORIGIN_RULES = perVersion<OriginRules>({
  '3.0': { notFound: () => 'origin not found', deleteChecks: "origin's tenant, then primary" },
  '5.0': { notFound: (id) => `no origin exists by id: ${id}`, deleteChecks: 'primary, then both tenancies' },
});

/**
 * `origins`, updated and deleted by `?id=` (docs/original-behaviour.md#origins), under the tenancy
 * of the origin and of its delivery service.
 */
@ConditionalOn('origin')
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'origins', version: ALL_VERSIONS })
@ApiTags('origins')
export class OriginsController {
  constructor(private readonly origins: OriginsService) {}

  @Get()
  @ApiOperation({ summary: 'List the origins' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('ORIGIN:READ', 'DELIVERY-SERVICE:READ')
  async list(
    @ListParams(ORIGIN_LIST) query: ListQuery,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    return (await this.origins.list(query, user)).map((o) => toOriginResponse(o, version));
  }

  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create an origin' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('ORIGIN:CREATE', 'ORIGIN:READ', 'DELIVERY-SERVICE:READ', 'DELIVERY-SERVICE:UPDATE')
  async create(
    @ValidBody(ORIGIN_BODIES) body: OriginV3Dto | OriginV5Dto,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const origin = await this.origins.create(body, user);
    return ApiResult.of(toOriginResponse(origin, version), successAlert('origin was created.'));
  }

  @Put()
  @ApiOperation({ summary: 'Update an origin' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('ORIGIN:UPDATE', 'ORIGIN:READ', 'DELIVERY-SERVICE:READ', 'DELIVERY-SERVICE:UPDATE')
  async update(
    @ValidQuery('id', QUERY_ID) id: number,
    @ValidBody(ORIGIN_BODIES) body: OriginV3Dto | OriginV5Dto,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    const origin = await this.origins.update(id, body, user, ORIGIN_RULES(version));
    return ApiResult.of(toOriginResponse(origin, version), successAlert('origin was updated.'));
  }

  @Delete()
  @ApiOperation({ summary: 'Delete an origin' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('ORIGIN:DELETE', 'DELIVERY-SERVICE:UPDATE')
  async remove(
    @ValidQuery('id', QUERY_ID) id: number,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    await this.origins.remove(id, user, ORIGIN_RULES(version));
    return ApiResult.alertsOnly(successAlert('origin was deleted.'));
  }
}
