import { ValidBody } from 'src/common/validation/valid-body';
import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { TenantDto } from './dto/tenant.dto';
import { toTenantResponse } from './dto/tenant.response';
import { TENANT_LIST } from './tenants.list';
import { TenantsService } from './tenants.service';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { WireTimes } from 'src/common/wire/wire-times';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

@ConditionalOn('tenant')
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'tenants', version: ALL_VERSIONS })
@ApiTags('tenants')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Get()
  @ApiOperation({ summary: 'List the tenants' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('TENANT:READ')
  async list(@ListParams(TENANT_LIST) query: ListQuery, @CurrentUser() user: CurrentUser) {
    return (await this.tenants.list(query, user)).map(toTenantResponse);
  }

  @Post()
  @ApiOperation({ summary: 'Create a tenant' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('TENANT:CREATE', 'TENANT:READ')
  async create(@ValidBody(TenantDto) dto: TenantDto, @CurrentUser() user: CurrentUser) {
    const tenant = await this.tenants.create(dto, user);
    return ApiResult.of(toTenantResponse(tenant), successAlert('tenant was created.'));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a tenant' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('TENANT:UPDATE', 'TENANT:READ')
  async update(
    @ValidPath('id', IntKey()) id: number,
    @ValidBody(TenantDto) dto: TenantDto,
    @CurrentUser() user: CurrentUser,
  ) {
    const tenant = await this.tenants.update(id, dto, user);
    return ApiResult.of(toTenantResponse(tenant), successAlert('tenant was updated.'));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a tenant' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('TENANT:DELETE', 'TENANT:READ')
  async remove(@ValidPath('id', IntKey()) id: number, @CurrentUser() user: CurrentUser) {
    await this.tenants.remove(id, user);
    return ApiResult.alertsOnly(successAlert('tenant was deleted.'));
  }
}
