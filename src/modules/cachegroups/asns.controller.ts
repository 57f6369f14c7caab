import type { Permission } from 'src/common/authorization/permissions';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { ValidBody } from 'src/common/validation/valid-body';
import { ASN_LIST } from './asns.list';
import { AsnsService } from './asns.service';
import { AsnDto } from './dto/asn.dto';
import { toAsnResponse, toWrittenAsnResponse } from './dto/asn.response';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey } from 'src/common/request-input/param-rules';
import { ValidPath, ValidQuery } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

const UPDATE_PERMISSIONS: Permission[] = ['ASN:UPDATE', 'ASN:READ', 'CACHE-GROUP:READ', 'CACHE-GROUP:UPDATE'];
const DELETE_PERMISSIONS: Permission[] = ['ASN:DELETE', 'ASN:READ', 'CACHE-GROUP:READ', 'CACHE-GROUP:UPDATE'];

/** The update and delete shared by both address forms. */
async function updateAsn(asns: AsnsService, id: number, dto: AsnDto) {
  const asn = await asns.update(id, dto);
  return ApiResult.of(toWrittenAsnResponse(asn, dto.cachegroup), successAlert('asn was updated.'));
}

async function removeAsn(asns: AsnsService, id: number) {
  await asns.remove(id);
  return ApiResult.alertsOnly(successAlert('asn was deleted.'));
}

/** `asns`, with the query form of update and delete (`PUT /asns?id=7`), docs/original-behaviour.md#asns. */
@ConditionalOn('asn')
@WireTimes({ rfc3339From: '5.0', specified: true })
@Controller({ path: 'asns', version: ALL_VERSIONS })
@ApiTags('asns')
export class AsnsController {
  constructor(private readonly asns: AsnsService) {}

  @Get()
  @ApiOperation({ summary: 'List the ASNs' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('ASN:READ', 'CACHE-GROUP:READ')
  async list(@ListParams(ASN_LIST) query: ListQuery) {
    return (await this.asns.list(query)).map(toAsnResponse);
  }

  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create an ASN' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('ASN:CREATE', 'ASN:READ', 'CACHE-GROUP:READ', 'CACHE-GROUP:UPDATE')
  async create(@ValidBody(AsnDto) dto: AsnDto) {
    const asn = await this.asns.create(dto);
    return ApiResult.of(toWrittenAsnResponse(asn, dto.cachegroup), successAlert('asn was created.'));
  }

  @Put()
  @ApiOperation({ summary: 'Update an ASN named by the id query parameter' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions(...UPDATE_PERMISSIONS)
  update(@ValidQuery('id', IntKey()) id: number, @ValidBody(AsnDto) body: AsnDto) {
    return updateAsn(this.asns, id, body);
  }

  @Delete()
  @ApiOperation({ summary: 'Delete an ASN named by the id query parameter' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions(...DELETE_PERMISSIONS)
  remove(@ValidQuery('id', IntKey()) id: number) {
    return removeAsn(this.asns, id);
  }
}

/** The path form of update and delete (`PUT /asns/7`), served on every version as the query form. */
@ConditionalOn('asn')
@WireTimes({ rfc3339From: '5.0', specified: true })
@Controller({ path: 'asns/:id', version: ALL_VERSIONS })
@ApiTags('asns')
export class AsnsByPathController {
  constructor(private readonly asns: AsnsService) {}

  @Put()
  @ApiOperation({ summary: 'Update an ASN' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions(...UPDATE_PERMISSIONS)
  update(@ValidPath('id', IntKey()) id: number, @ValidBody(AsnDto) body: AsnDto) {
    return updateAsn(this.asns, id, body);
  }

  @Delete()
  @ApiOperation({ summary: 'Delete an ASN' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions(...DELETE_PERMISSIONS)
  remove(@ValidPath('id', IntKey()) id: number) {
    return removeAsn(this.asns, id);
  }
}
