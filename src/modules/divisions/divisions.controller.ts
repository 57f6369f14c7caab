import { ValidBody } from 'src/common/validation/valid-body';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { DIVISION_LIST } from './divisions.list';
import { DivisionsService } from './divisions.service';
import { DivisionDto } from './dto/division.dto';
import { toDivisionResponse } from './dto/division.response';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

/** Generic CRUD of the original (TODivision), tag `division`. */
@ConditionalOn('division')
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'divisions', version: ALL_VERSIONS })
@ApiTags('divisions')
export class DivisionsController {
  constructor(private readonly divisions: DivisionsService) {}

  @Get()
  @ApiOperation({ summary: 'List the divisions' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('DIVISION:READ')
  async list(@ListParams(DIVISION_LIST) query: ListQuery) {
    return (await this.divisions.list(query)).map(toDivisionResponse);
  }

  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create a division' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DIVISION:CREATE', 'DIVISION:READ')
  async create(@ValidBody(DivisionDto) dto: DivisionDto) {
    const division = await this.divisions.create(dto);
    return ApiResult.of(toDivisionResponse(division), successAlert('division was created.'));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a division' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DIVISION:UPDATE', 'DIVISION:READ')
  async update(@ValidPath('id', IntKey()) id: number, @ValidBody(DivisionDto) dto: DivisionDto) {
    const division = await this.divisions.update(id, dto);
    return ApiResult.of(toDivisionResponse(division), successAlert('division was updated.'));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a division' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('DIVISION:DELETE', 'DIVISION:READ')
  async remove(@ValidPath('id', IntKey()) id: number) {
    await this.divisions.remove(id);
    return ApiResult.alertsOnly(successAlert('division was deleted.'));
  }
}
