import { Controller, Get } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { IsoService } from './iso.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';

/** GET osversions: the OS versions ISO generation offers (Traffic Portal's ISO page). */
@Controller({ path: 'osversions', version: ALL_VERSIONS })
@ApiTags('os versions')
export class OsVersionsController {
  constructor(private readonly iso: IsoService) {}

  @Get()
  @ApiOperation({ summary: 'List the OS versions offered for ISO generation' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('ISO:READ')
  list() {
    return this.iso.osVersions();
  }
}
