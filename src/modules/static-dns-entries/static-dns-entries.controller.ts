import { BadRequestException, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { WireTimes } from 'src/common/wire/wire-times';
import { StaticDnsEntryDto } from './dto/static-dns-entry.dto';
import { toStaticDnsEntryResponse } from './dto/static-dns-entry.response';
import { STATIC_DNS_ENTRY_LIST } from './static-dns-entries.list';
import { StaticDnsEntriesService } from './static-dns-entries.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey, intRule } from 'src/common/request-input/param-rules';
import { DeferredInput, ValidQuery } from 'src/common/request-input/request-input';

/** 5.0 requires the body's `typeId`; before, an absent type is looked up as the type 0 (`type not found`). */
function typedBody(body: StaticDnsEntryDto, version: ApiVersion): StaticDnsEntryDto {
  if ((body.typeId === undefined || body.typeId === null) && version.atLeast('5.0')) {
    throw new BadRequestException("missing property: 'typeId'");
  }
  return body;
}

/**
 * The entry's `?id=`: before 5.0 as the original's generic handlers read a key (`missing key: id`,
 * `failed to parse key: id`); on 5.0 as its own handlers (`missing key: id`, then Go's strconv.Atoi
 * error). An id beyond the ids' column names no entry (404). Read after the body (deferred).
 */
const ENTRY_ID = {
  '3.0': IntKey({ emptyIsMissing: true }),
  '5.0': intRule('staticDnsEntry', { atoi: true, column: null }),
};

/**
 * `staticdnsentries` (docs/original-behaviour.md#static-dns-entries): list, create, and update and
 * delete by `?id=`, under the tenancy of the entries' delivery services (docs/decisions.md#d109).
 * A body is validated before the `?id=` is read, as the original does.
 */
@ConditionalOn('staticdnsentry')
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'staticdnsentries', version: ALL_VERSIONS })
@ApiTags('static dns entries')
export class StaticDnsEntriesController {
  constructor(private readonly entries: StaticDnsEntriesService) {}

  @Get()
  @ApiOperation({ summary: 'List the static DNS entries' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('STATIC-DN:READ', 'CACHE-GROUP:READ', 'DELIVERY-SERVICE:READ')
  async list(@ListParams(STATIC_DNS_ENTRY_LIST) query: ListQuery, @CurrentUser() user: CurrentUser) {
    return (await this.entries.list(query, user)).map(toStaticDnsEntryResponse);
  }

  @Post()
  @ApiOperation({ summary: 'Create a static DNS entry' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('STATIC-DN:CREATE', 'STATIC-DN:READ', 'CACHE-GROUP:READ', 'DELIVERY-SERVICE:READ')
  async create(
    @ValidBody(StaticDnsEntryDto) body: StaticDnsEntryDto,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    await this.entries.validate(typedBody(body, version));
    const entry = await this.entries.create(body, user);
    return ApiResult.of(toStaticDnsEntryResponse(entry), successAlert('staticDNSEntry was created.'));
  }

  @Put()
  @ApiOperation({ summary: 'Update a static DNS entry' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('STATIC-DN:UPDATE', 'STATIC-DN:READ', 'CACHE-GROUP:READ', 'DELIVERY-SERVICE:READ')
  async update(
    @ValidQuery('id', ENTRY_ID, { deferred: true }) id: DeferredInput<number>,
    @ValidBody(StaticDnsEntryDto) body: StaticDnsEntryDto,
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ) {
    await this.entries.validate(typedBody(body, version));
    const entry = await this.entries.update(id.read(), body, user);
    return ApiResult.of(toStaticDnsEntryResponse(entry), successAlert('staticDNSEntry was updated.'));
  }

  @Delete()
  @ApiOperation({ summary: 'Delete a static DNS entry' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('STATIC-DN:DELETE', 'STATIC-DN:READ', 'DELIVERY-SERVICE:READ', 'CACHE-GROUP:READ')
  async remove(@ValidQuery('id', ENTRY_ID) id: number, @CurrentUser() user: CurrentUser) {
    await this.entries.remove(id, user);
    return ApiResult.alertsOnly(successAlert('staticDNSEntry was deleted.'));
  }
}
