import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { StatsSummaryBodyType } from './dto/stats-summary.dto';
import { toLastSummaryDate, toStatsSummaryResponse } from './dto/stats-summary.response';
import { STATS_SUMMARY_LIST } from './stats-summary.list';
import { StatsSummaryService } from './stats-summary.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { TextParam } from 'src/common/request-input/param-rules';
import { ValidQuery } from 'src/common/request-input/request-input';

/** Traffic Stats' daily summaries: read (a list, or the newest one's time) and record one. */
@Controller({ path: 'stats_summary', version: ALL_VERSIONS })
@ApiTags('traffic stats')
export class StatsSummaryController {
  constructor(private readonly summaries: StatsSummaryService) {}

  /** With a non-empty `lastSummaryDate`, `{summaryTime}` of the newest summary (of `statName`). */
  @Get()
  @ApiOperation({ summary: 'List the stats summaries, or the time of the newest one' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('STAT:READ', 'CDN:READ', 'DELIVERY-SERVICE:READ')
  async list(
    @ListParams(STATS_SUMMARY_LIST) query: ListQuery,
    @ValidQuery('lastSummaryDate', TextParam()) lastSummaryDate: string | undefined,
    @ValidQuery('statName', TextParam()) statName: string | undefined,
    @RequestedVersion() version: ApiVersion,
  ) {
    if ((lastSummaryDate ?? '') !== '') {
      return toLastSummaryDate(await this.summaries.lastSummaryTime(statName), version);
    }
    const rows = await this.summaries.list(query);
    return rows.map((row) => toStatsSummaryResponse(row, version));
  }

  /** The original answers only its alert; the created summary is in the response for the change log. */
  @Post()
  @ApiOperation({ summary: 'Record a stats summary' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('STAT:CREATE', 'STAT:READ', 'CDN:READ', 'DELIVERY-SERVICE:READ')
  async create(@ValidBody(StatsSummaryBodyType) body: StatsSummaryBodyType) {
    await this.summaries.create(body.summary());
    return ApiResult.alertsOnly(successAlert('Stats Summary was successfully created'));
  }
}
