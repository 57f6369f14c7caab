import { ValidBody } from 'src/common/validation/valid-body';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { CACHEGROUP_LIST } from './cachegroups.list';
import { CachegroupsService } from './cachegroups.service';
import { CachegroupDto } from './dto/cachegroup.dto';
import { toCachegroupResponse } from './dto/cachegroup.response';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

@ConditionalOn('cachegroup')
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'cachegroups', version: ALL_VERSIONS })
@ApiTags('cache groups')
export class CachegroupsController {
  constructor(private readonly cachegroups: CachegroupsService) {}

  @Get()
  @ApiOperation({ summary: 'List the cache groups' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CACHE-GROUP:READ')
  async list(@ListParams(CACHEGROUP_LIST) query: ListQuery) {
    return (await this.cachegroups.list(query)).map(toCachegroupResponse);
  }

  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create a cache group' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CACHE-GROUP:CREATE', 'CACHE-GROUP:READ')
  async create(@ValidBody(CachegroupDto) dto: CachegroupDto) {
    const created = await this.cachegroups.create(dto);
    return ApiResult.of(toCachegroupResponse(created), successAlert('cachegroup was created.'));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a cache group' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CACHE-GROUP:UPDATE', 'CACHE-GROUP:READ')
  async update(
    @ValidPath('id', IntKey()) id: number,
    @ValidBody(CachegroupDto) dto: CachegroupDto,
    @CurrentUser() user: CurrentUser,
  ) {
    const updated = await this.cachegroups.update(id, dto, user);
    return ApiResult.of(toCachegroupResponse(updated), successAlert('cachegroup was updated.'));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a cache group' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('CACHE-GROUP:DELETE', 'CACHE-GROUP:READ')
  async remove(@ValidPath('id', IntKey()) id: number) {
    await this.cachegroups.remove(id);
    return ApiResult.alertsOnly(successAlert('cachegroup was deleted.'));
  }
}
