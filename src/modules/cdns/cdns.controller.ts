import { ValidBody } from 'src/common/validation/valid-body';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { CDN_LIST } from './cdns.list';
import { CdnsService, type CdnInput } from './cdns.service';
import { CdnDto } from './dto/cdn.dto';
import { toCdnResponse } from './dto/cdn.response';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

/** The body as the service takes it: `ttlOverride` exists from API 4.1 (null when not given). */
function cdnInput(dto: CdnDto, version: ApiVersion): CdnInput {
  const { ttlOverride, ...rest } = dto;
  return version.atLeast('4.1') ? { ...rest, ttlOverride: ttlOverride ?? null } : rest;
}

@ConditionalOn('cdn')
@WireTimes({ rfc3339From: '5.0', specified: true })
@Controller({ path: 'cdns', version: ALL_VERSIONS })
@ApiTags('cdns')
export class CdnsController {
  constructor(private readonly cdns: CdnsService) {}

  @Get()
  @ApiOperation({ summary: 'List the CDNs' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ')
  async list(@ListParams(CDN_LIST) query: ListQuery, @RequestedVersion() version: ApiVersion) {
    const cdns = await this.cdns.list(query);
    return cdns.map((cdn) => toCdnResponse(cdn, version));
  }

  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create a CDN' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CDN:CREATE', 'CDN:READ')
  async create(@ValidBody(CdnDto) dto: CdnDto, @RequestedVersion() version: ApiVersion) {
    const cdn = await this.cdns.create(cdnInput(dto, version));
    return ApiResult.of(toCdnResponse(cdn, version), successAlert('cdn was created.'));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a CDN' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CDN:UPDATE', 'CDN:READ')
  async update(
    @ValidPath('id', IntKey()) id: number,
    @ValidBody(CdnDto) dto: CdnDto,
    @RequestedVersion() version: ApiVersion,
    @CurrentUser() user: CurrentUser,
  ) {
    const cdn = await this.cdns.update(id, cdnInput(dto, version), user);
    return ApiResult.of(toCdnResponse(cdn, version), successAlert('cdn was updated.'));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a CDN' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CDN:DELETE', 'CDN:READ')
  async remove(@ValidPath('id', IntKey()) id: number, @CurrentUser() user: CurrentUser) {
    await this.cdns.remove(id, user);
    return ApiResult.alertsOnly(successAlert('cdn was deleted.'));
  }
}
