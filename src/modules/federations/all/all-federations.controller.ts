import { Controller, Get } from '@nestjs/common';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { AllFederationsService } from './all-federations.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { TextParam } from 'src/common/request-input/param-rules';
import { ValidQuery } from 'src/common/request-input/request-input';

/**
 * `GET federations/all[?cdnName=]`: every CDN's federation mappings, for Traffic Router. Admin level.
 * If-Modified-Since is answered from the last change of every table the answer is built from
 * (docs/decisions.md#d108): the original's three federation tables, and the delivery
 * services and CDNs that `cdnName` selects by.
 */
@Controller({ path: 'federations/all', version: ALL_VERSIONS })
@ApiTags('federations')
@ConditionalOn([
  'federation',
  'federation_deliveryservice',
  'federation_federation_resolver',
  'deliveryservice',
  'cdn',
])
export class AllFederationsController {
  constructor(private readonly federations: AllFederationsService) {}

  @Get()
  @ApiOperation({ summary: 'List the federation mappings of every CDN' })
  @RequirePrivLevel(PrivLevel.Admin)
  @RequirePermissions('FEDERATION-RESOLVER:READ', 'DELIVERY-SERVICE:READ')
  all(@ValidQuery('cdnName', TextParam()) cdnName: string | undefined) {
    return this.federations.all(cdnName);
  }
}
