import { Controller, Get } from '@nestjs/common';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ALL_VERSIONS } from 'src/common/versioning/api-version';
import { toStatusResponse } from './dto/status.response';
import { STATUS_LIST } from './statuses.list';
import { StatusesService } from './statuses.service';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';

/**
 * GET /statuses only. The original's 3.0–5.0 routes have no GET /statuses/{id} (it ended with 2.0);
 * status writes are not part of this API's subset.
 */
@ConditionalOn('status')
@Controller({ path: 'statuses', version: ALL_VERSIONS })
export class StatusesController {
  constructor(private readonly statuses: StatusesService) {}

  @Get()
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('STATUS:READ')
  async list(@ListParams(STATUS_LIST) query: ListQuery) {
    return (await this.statuses.list(query)).map(toStatusResponse);
  }
}
