import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import {
  OnlyUser,
  PrivLevel,
  RequirePermissions,
  RequirePrivLevel,
} from 'src/common/decorators/auth.decorators';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { NotAChange } from 'src/common/decorators/not-a-change.decorator';
import { ExtensionBody, ServercheckBody } from './dto/servercheck.dto';
import { EXTENSION_LIST, SERVERCHECK_LIST } from './servercheck.list';
import { EXTENSION_USER, NOT_EXTENSION_USER, ServercheckService } from './servercheck.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntParam } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';

/** `servercheck` (docs/original-behaviour.md#servercheck). */
@Controller({ path: 'servercheck', version: ALL_VERSIONS })
@ApiTags('server checks')
export class ServercheckController {
  constructor(private readonly checks: ServercheckService) {}

  @Get()
  @ApiOperation({ summary: "List the servers' check results" })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('SERVER-CHECK:READ', 'SERVER:READ')
  list(@ListParams(SERVERCHECK_LIST) query: ListQuery) {
    return this.checks.list(query);
  }

  /** The original writes no change-log entry here (checks are posted every minute). */
  @Post()
  @ApiOperation({ summary: "Record a server's check result" })
  @HttpCode(200)
  @NotAChange()
  @RequirePrivLevel(PrivLevel.LoggedIn)
  @RequirePermissions('SERVER-CHECK:CREATE', 'SERVER-CHECK:READ', 'SERVER:READ')
  @OnlyUser(EXTENSION_USER, NOT_EXTENSION_USER)
  async record(@ValidBody(ServercheckBody) body: ServercheckBody) {
    await this.checks.record(body);
    return ApiResult.alertsOnly(successAlert('Server Check was successfully updated'));
  }
}

/** `servercheck/extensions`: check extensions in the 31 slots. */
@Controller({ path: 'servercheck/extensions', version: ALL_VERSIONS })
@ApiTags('server check extensions')
export class ServercheckExtensionsController {
  constructor(private readonly checks: ServercheckService) {}

  @Get()
  @ApiOperation({ summary: 'List the server check extensions' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('SERVER-CHECK:READ', 'SERVER:READ')
  list(@ListParams(EXTENSION_LIST) query: ListQuery) {
    return this.checks.extensions(query);
  }

  /** Answers `{"supplemental": {"id": …}, "alerts": […]}`, the original's own shape. */
  @Post()
  @ApiOperation({ summary: 'Create a server check extension' })
  @HttpCode(200)
  @RawResponse()
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('SERVER-CHECK:CREATE', 'SERVER-CHECK:READ', 'SERVER:READ')
  @OnlyUser(EXTENSION_USER, NOT_EXTENSION_USER)
  async create(@ValidBody(ExtensionBody) body: ExtensionBody) {
    const id = await this.checks.createExtension(body);
    return { supplemental: { id }, alerts: [successAlert('Check Extension Loaded.')] };
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a server check extension' })
  @ConditionalOn('to_extension')
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('SERVER-CHECK:DELETE', 'SERVER-CHECK:READ', 'SERVER:READ')
  @OnlyUser(EXTENSION_USER, NOT_EXTENSION_USER)
  async remove(@ValidPath('id', IntParam()) id: number) {
    await this.checks.deleteExtension(id);
    return ApiResult.alertsOnly(successAlert('Extensions deleted.'));
  }
}
