import { ValidBody } from 'src/common/validation/valid-body';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { PhysLocationDto } from './dto/phys-location.dto';
import { toPhysLocationResponse } from './dto/phys-location.response';
import { PHYS_LOCATION_LIST } from './phys-locations.list';
import { PhysLocationsService } from './phys-locations.service';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

/** Generic CRUD of the original (TOPhysLocation), tag `physLocation`. */
@ConditionalOn('phys_location')
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'phys_locations', version: ALL_VERSIONS })
@ApiTags('physical locations')
export class PhysLocationsController {
  constructor(private readonly physLocations: PhysLocationsService) {}

  @Get()
  @ApiOperation({ summary: 'List the physical locations' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('PHYSICAL-LOCATION:READ')
  async list(@ListParams(PHYS_LOCATION_LIST) query: ListQuery) {
    return (await this.physLocations.list(query)).map(toPhysLocationResponse);
  }

  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create a physical location' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PHYSICAL-LOCATION:CREATE', 'PHYSICAL-LOCATION:READ')
  async create(@ValidBody(PhysLocationDto) dto: PhysLocationDto) {
    const pl = await this.physLocations.create(dto);
    return ApiResult.of(toPhysLocationResponse(pl), successAlert('physLocation was created.'));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a physical location' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PHYSICAL-LOCATION:UPDATE', 'PHYSICAL-LOCATION:READ')
  async update(@ValidPath('id', IntKey()) id: number, @ValidBody(PhysLocationDto) dto: PhysLocationDto) {
    const pl = await this.physLocations.update(id, dto);
    return ApiResult.of(toPhysLocationResponse(pl), successAlert('physLocation was updated.'));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a physical location' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('PHYSICAL-LOCATION:DELETE', 'PHYSICAL-LOCATION:READ')
  async remove(@ValidPath('id', IntKey()) id: number) {
    await this.physLocations.remove(id);
    return ApiResult.alertsOnly(successAlert('physLocation was deleted.'));
  }
}
