import { ValidBody } from 'src/common/validation/valid-body';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { StatusDto } from './dto/status.dto';
import { toStatusResponse } from './dto/status.response';
import { STATUS_LIST } from './statuses.list';
import { StatusesService } from './statuses.service';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

/**
 * Generic CRUD of the original (TOStatus), tag `status`. The original's 3.0–5.0 routes have no
 * GET /statuses/{id} (it ended with 2.0).
 */
@ConditionalOn('status')
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'statuses', version: ALL_VERSIONS })
@ApiTags('statuses')
export class StatusesController {
  constructor(private readonly statuses: StatusesService) {}

  @Get()
  @ApiOperation({ summary: 'List the statuses' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('STATUS:READ')
  async list(@ListParams(STATUS_LIST) query: ListQuery) {
    return (await this.statuses.list(query)).map(toStatusResponse);
  }

  @Post()
  @ApiOperation({ summary: 'Create a status' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('STATUS:CREATE', 'STATUS:READ')
  async create(@ValidBody(StatusDto) dto: StatusDto) {
    const status = await this.statuses.create(dto);
    return ApiResult.of(toStatusResponse(status), successAlert('status was created.'));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a status' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('STATUS:UPDATE', 'STATUS:READ')
  async update(@ValidPath('id', IntKey()) id: number, @ValidBody(StatusDto) dto: StatusDto) {
    const status = await this.statuses.update(id, dto);
    return ApiResult.of(toStatusResponse(status), successAlert('status was updated.'));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a status' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('STATUS:DELETE', 'STATUS:READ')
  async remove(@ValidPath('id', IntKey()) id: number) {
    await this.statuses.remove(id);
    return ApiResult.alertsOnly(successAlert('status was deleted.'));
  }
}
