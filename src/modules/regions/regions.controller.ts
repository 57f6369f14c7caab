import { ValidBody } from 'src/common/validation/valid-body';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { RegionDto } from './dto/region.dto';
import { toRegionResponse } from './dto/region.response';
import { REGION_LIST } from './regions.list';
import { type RegionKey, RegionsService } from './regions.service';
import { ConditionalOn, type RowKey } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey, intRule, TextParam } from 'src/common/request-input/param-rules';
import type { Request } from 'express';
import { inputText, ValidPath, ValidQuery } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

/** `?id=` and `?name=`: an empty one counts as absent, as in the original; the id is a filter's. */
const REGION_KEY = {
  id: intRule('filter', { required: false, emptyIsMissing: true }),
  name: TextParam({ emptyIsMissing: true }),
};

/** The region DELETE /regions addresses: `?id=` and/or `?name=` (both must then match). */
function regionKeyOf(query: { id?: string; name?: string }): RegionKey {
  const id = REGION_KEY.id.read(query.id, 'id');
  return { name: REGION_KEY.name.read(query.name, 'name'), ...(id === undefined ? {} : { id }) };
}

/** The same key as the row the DELETE's preconditions are checked against. */
function regionRowOf(req: Request): RowKey | undefined {
  const { id, name } = regionKeyOf({
    id: inputText(req, 'query', 'id'),
    name: inputText(req, 'query', 'name'),
  });
  const row: RowKey = { ...(id === undefined ? {} : { id }), ...(name === undefined ? {} : { name }) };
  return Object.keys(row).length === 0 ? undefined : row;
}

/** Generic CRUD of the original (TORegion), tag `region`; no DELETE /regions/{id} exists (3.0–5.0). */
@ConditionalOn('region')
@WireTimes({ rfc3339From: '5.0', specified: true })
@Controller({ path: 'regions', version: ALL_VERSIONS })
@ApiTags('regions')
export class RegionsController {
  constructor(private readonly regions: RegionsService) {}

  @Get()
  @ApiOperation({ summary: 'List the regions' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('REGION:READ')
  async list(@ListParams(REGION_LIST) query: ListQuery) {
    return (await this.regions.list(query)).map((region) => toRegionResponse(region));
  }

  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create a region' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('REGION:CREATE', 'REGION:READ')
  async create(@ValidBody(RegionDto) dto: RegionDto) {
    const region = await this.regions.create(dto);
    return ApiResult.of(toRegionResponse(region), successAlert('region was created.'));
  }

  /** The response echoes the request's `divisionName`, null when omitted (docs/decisions.md#d6). */
  @Put(':id')
  @ApiOperation({ summary: 'Update a region' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('REGION:UPDATE', 'REGION:READ')
  async update(@ValidPath('id', IntKey()) id: number, @ValidBody(RegionDto) dto: RegionDto) {
    const region = await this.regions.update(id, dto);
    return ApiResult.of(
      toRegionResponse(region, dto.divisionName ?? null),
      successAlert('region was updated.'),
    );
  }

  @Delete()
  @ApiOperation({ summary: 'Delete a region named by the id or name query parameter' })
  @ConditionalOn({ table: 'region', row: (req) => regionRowOf(req) })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('REGION:DELETE')
  async remove(@ValidQuery(REGION_KEY) key: RegionKey) {
    await this.regions.remove(key);
    return ApiResult.alertsOnly(successAlert('region was deleted.'));
  }
}
