import { Controller, Get } from '@nestjs/common';
import { PrivLevel, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, warningAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { versionsFrom } from 'src/common/versioning/api-version';
import { WireTimes } from 'src/common/wire/wire-times';
import { API_CAPABILITY_LIST, CAPABILITY_LIST } from './capabilities.list';
import { CapabilitiesService } from './capabilities.service';
import { toApiCapabilityResponse, toCapabilityResponse } from './dto/capability.response';
import { ApiOperation, ApiTags } from '@nestjs/swagger';

/** The warning both deprecated routes put before their list, as the original's. */
export const DEPRECATED_TEXT = 'This endpoint is deprecated, and will be removed in the future';

/**
 * `GET capabilities` (3.x only, as the original; docs/decisions.md#d113). The original
 * requires no permission on 3.x, where none is checked.
 */
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'capabilities', version: versionsFrom('3.0', '3.1') })
@ApiTags('capabilities')
export class CapabilitiesController {
  constructor(private readonly capabilities: CapabilitiesService) {}

  @Get()
  @ApiOperation({ summary: 'List the capabilities (deprecated)' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  async list(@ListParams(CAPABILITY_LIST) query: ListQuery) {
    const rows = await this.capabilities.capabilities(query);
    return ApiResult.of(rows.map(toCapabilityResponse), warningAlert(DEPRECATED_TEXT));
  }
}

/** `GET api_capabilities` (3.x only, as the original). */
@WireTimes({ rfc3339From: '5.0' })
@Controller({ path: 'api_capabilities', version: versionsFrom('3.0', '3.1') })
@ApiTags('api capabilities')
export class ApiCapabilitiesController {
  constructor(private readonly capabilities: CapabilitiesService) {}

  @Get()
  @ApiOperation({ summary: 'List the API capabilities (deprecated)' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  async list(@ListParams(API_CAPABILITY_LIST) query: ListQuery) {
    const rows = await this.capabilities.apiCapabilities(query);
    return ApiResult.of(rows.map(toApiCapabilityResponse), warningAlert(DEPRECATED_TEXT));
  }
}
