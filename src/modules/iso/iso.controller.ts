import { Controller, Get } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { IsoService } from './iso.service';

/** GET osversions: the OS versions ISO generation offers (Traffic Portal's ISO page). */
@Controller({ path: 'osversions', version: ALL_VERSIONS })
export class OsVersionsController {
  constructor(private readonly iso: IsoService) {}

  @Get()
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('ISO:READ')
  list() {
    return this.iso.osVersions();
  }
}
