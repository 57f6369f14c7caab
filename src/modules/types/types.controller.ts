import { ValidBody } from 'src/common/validation/valid-body';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { TypeDto } from './dto/type.dto';
import { toTypeResponse } from './dto/type.response';
import { TYPE_LIST } from './types.list';
import { assertTypeNameCharacters, TypesService } from './types.service';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

@ConditionalOn('type')
@WireTimes({ rfc3339From: '5.0', specified: true })
@Controller({ path: 'types', version: ALL_VERSIONS })
@ApiTags('types')
export class TypesController {
  constructor(private readonly types: TypesService) {}

  @Get()
  @ApiOperation({ summary: 'List the types' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('TYPE:READ')
  async list(@ListParams(TYPE_LIST) query: ListQuery) {
    return (await this.types.list(query)).map(toTypeResponse);
  }

  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create a type' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('TYPE:CREATE', 'TYPE:READ')
  async create(@ValidBody(TypeDto) dto: TypeDto, @RequestedVersion() version: ApiVersion) {
    if (version.atLeast('5.0')) {
      assertTypeNameCharacters(dto.name);
    }
    const type = await this.types.create(dto);
    return ApiResult.of(toTypeResponse(type), successAlert('type was created.'));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a type' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('TYPE:UPDATE', 'TYPE:READ')
  async update(
    @ValidPath('id', IntKey()) id: number,
    @ValidBody(TypeDto) dto: TypeDto,
    @RequestedVersion() version: ApiVersion,
  ) {
    if (version.atLeast('5.0')) {
      assertTypeNameCharacters(dto.name);
    }
    const type = await this.types.update(id, dto);
    return ApiResult.of(toTypeResponse(type), successAlert('type was updated.'));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a type' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('TYPE:DELETE', 'TYPE:READ')
  async remove(@ValidPath('id', IntKey()) id: number) {
    await this.types.remove(id);
    return ApiResult.alertsOnly(successAlert('type was deleted.'));
  }
}
