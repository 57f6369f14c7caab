import { Controller, Get } from '@nestjs/common';
import { packageInfo } from 'src/bootstrap/package-info';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { CurrentUser } from 'src/common/decorators/current-user.decorator';
import { RawResponse } from 'src/common/decorators/raw-response.decorator';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { ParametersService } from 'src/modules/parameters/parameters.service';
import { canReadSecureValues } from 'src/modules/parameters/secure-values';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { SystemRepository } from './system.repository';

/** The parameters GET system/info shows: those of the `global` configuration file (as the original). */
const GLOBAL_CONFIG_FILE = 'global';

/**
 * What is running: `GET about` (the original's build information, unwrapped, every value a
 * string, plus the Node version and the database's schema version) and `GET system/info` (the
 * global parameters). Both need a signed-in user of at least read-only level.
 */
@Controller({ version: ALL_VERSIONS })
@ApiTags('system')
export class SystemController {
  constructor(
    private readonly database: SystemRepository,
    private readonly parameters: ParametersService,
  ) {}

  @Get('about')
  @ApiOperation({ summary: 'Show the name and version of this server, its Node.js and its database schema' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RawResponse()
  async about(): Promise<Record<string, string>> {
    const { name, version } = packageInfo();
    const schemaVersion = await this.database.schemaVersion();
    return {
      name,
      Version: version,
      release: '',
      nodeVersion: process.version,
      schemaVersion: schemaVersion ?? '',
    };
  }

  /** Secure parameters are left out for a user who may not read their values. */
  @Get('system/info')
  @ApiOperation({ summary: 'Show the global parameters' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  async info(
    @CurrentUser() user: CurrentUser,
    @RequestedVersion() version: ApiVersion,
  ): Promise<{ parameters: Record<string, string> }> {
    const rows = await this.parameters.ofConfigFile(GLOBAL_CONFIG_FILE);
    const canReadSecure = canReadSecureValues(user, version);
    const parameters: Record<string, string> = {};
    for (const row of rows) {
      if (!row.secure || canReadSecure) {
        parameters[row.name] = row.value;
      }
    }
    return { parameters };
  }
}
