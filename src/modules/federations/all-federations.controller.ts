import { Controller, Get, Query } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { AllFederationsService } from './all-federations.service';

/** `GET federations/all[?cdnName=]`: every CDN's federation mappings, for Traffic Router. Admin level. */
@Controller({ path: 'federations/all', version: ALL_VERSIONS })
export class AllFederationsController {
  constructor(private readonly federations: AllFederationsService) {}

  @Get()
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('FEDERATION-RESOLVER:READ', 'DELIVERY-SERVICE:READ')
  all(@Query('cdnName') raw: unknown) {
    const value: unknown = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
    return this.federations.all(typeof value === 'string' ? value : undefined);
  }
}
