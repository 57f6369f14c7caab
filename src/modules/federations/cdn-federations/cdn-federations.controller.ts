import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { CDN_FEDERATION_LIST } from './cdn-federations.list';
import { CdnFederationsService } from './cdn-federations.service';
import { CdnFederationDto, CdnFederationV5Dto } from './cdn-federation.dto';
import { toCdnFederationListResponse, toCdnFederationResponse } from './cdn-federation.response';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey, PathText } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

const CDN_FEDERATION_BODIES = { '3.0': CdnFederationDto, '5.0': CdnFederationV5Dto };

/**
 * Federations by CDN, the generic CRUD of the original (tag `cdnfederation`). The original's POST
 * lists the single permission string "FEDERATION:READ, CDN:READ"; we require the two (docs/decisions.md#d28).
 */
@ConditionalOn('federation')
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'cdns/:name/federations', version: ALL_VERSIONS })
@ApiTags('federations')
export class CdnFederationsController {
  constructor(private readonly federations: CdnFederationsService) {}

  @Get()
  @ApiOperation({ summary: 'List the federations of a CDN' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ', 'FEDERATION:READ', 'DELIVERY-SERVICE:READ')
  async list(
    @ValidPath('name', PathText()) name: string,
    @ListParams(CDN_FEDERATION_LIST) query: ListQuery,
    @CurrentUser() user: CurrentUser,
  ) {
    return (await this.federations.list(name, query, user)).map(toCdnFederationListResponse);
  }

  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create a federation in a CDN' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('FEDERATION:CREATE', 'FEDERATION:READ', 'CDN:READ')
  async create(
    @ValidPath('name', PathText()) name: string,
    @ValidBody(CDN_FEDERATION_BODIES) body: CdnFederationDto,
  ) {
    const federation = await this.federations.create(name, body);
    return ApiResult.of(toCdnFederationResponse(federation), successAlert('cdnfederation was created.'));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a federation of a CDN' })
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('FEDERATION:UPDATE', 'FEDERATION:READ', 'CDN:READ')
  async update(
    @ValidPath('name', PathText()) name: string,
    @ValidPath('id', IntKey()) id: number,
    @ValidBody(CDN_FEDERATION_BODIES) body: CdnFederationDto,
    @CurrentUser() user: CurrentUser,
  ) {
    const federation = await this.federations.update(name, id, body, user);
    return ApiResult.of(toCdnFederationResponse(federation), successAlert('cdnfederation was updated.'));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a federation of a CDN' })
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('FEDERATION:DELETE', 'FEDERATION:READ', 'CDN:READ')
  async remove(
    @ValidPath('name', PathText()) name: string,
    @ValidPath('id', IntKey()) id: number,
    @CurrentUser() user: CurrentUser,
  ) {
    await this.federations.remove(name, id, user);
    return ApiResult.alertsOnly(successAlert('cdnfederation was deleted.'));
  }
}
