import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { type CdnDomain, ProfilesService } from './profiles.service';

/**
 * `GET cdns/domains` (traffic_ops_golang/cdn/domains.go): one entry per Traffic Router profile
 * (`TR_PROFILE`) with its CDN's domain; `parameterId` is always -1, as in the original. It answers
 * If-Modified-Since from the profiles (docs/original-behaviour.md#cdn-domains).
 */
@Controller({ path: 'cdns/domains', version: ALL_VERSIONS })
@ApiTags('cdns')
export class CdnDomainsController {
  constructor(private readonly profiles: ProfilesService) {}

  @Get()
  @ApiOperation({ summary: 'List the domains of the CDNs, one per Traffic Router profile' })
  @ConditionalOn('profile')
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('CDN:READ', 'PROFILE:READ', 'PARAMETER:READ')
  domains(): Promise<CdnDomain[]> {
    return this.profiles.domains();
  }
}
