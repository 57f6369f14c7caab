import { ValidBody } from 'src/common/validation/valid-body';
import {
  BadRequestException,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { KeyIdPipe } from 'src/common/validation/id.pipe';
import { parseIntText } from 'src/common/validation/integers';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { RegionDto } from './dto/region.dto';
import { toRegionResponse } from './dto/region.response';
import { REGION_LIST } from './regions.list';
import { type RegionKey, RegionsService } from './regions.service';
import { ConditionalOn, type RowKey } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreatedFrom } from 'src/common/wire/created-from';

/** The first value of a query parameter; an empty one counts as absent, as in the original. */
function queryValue(raw: unknown): string | undefined {
  const value: unknown = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The region DELETE /regions addresses: `?id=` and/or `?name=` (both must then match). */
function regionKeyOf(query: Record<string, unknown>): RegionKey {
  const key: RegionKey = { name: queryValue(query.name) };
  const id = queryValue(query.id);
  if (id !== undefined) {
    key.id = parseIntText(id);
    if (key.id === undefined) {
      throw new BadRequestException('id cannot parse to integer');
    }
  }
  return key;
}

/** The same key as the row the DELETE's preconditions are checked against. */
function regionRowOf(query: Record<string, unknown>): RowKey | undefined {
  const { id, name } = regionKeyOf(query);
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
  async update(@Param('id', KeyIdPipe) id: number, @ValidBody(RegionDto) dto: RegionDto) {
    const region = await this.regions.update(id, dto);
    return ApiResult.of(
      toRegionResponse(region, dto.divisionName ?? null),
      successAlert('region was updated.'),
    );
  }

  @Delete()
  @ApiOperation({ summary: 'Delete a region named by the id or name query parameter' })
  @ConditionalOn({ table: 'region', row: (req) => regionRowOf(req.query) })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('REGION:DELETE')
  async remove(@Query() query: Record<string, unknown>) {
    await this.regions.remove(regionKeyOf(query));
    return ApiResult.alertsOnly(successAlert('region was deleted.'));
  }
}
