import { Injectable } from '@nestjs/common';
import type { ListQuery } from 'src/common/list-query/list-query';
import type { StatsSummaryBody } from './dto/stats-summary.dto';
import type { StatsSummary } from './stats-summary.entity';
import { StatsRepository } from './stats.repository';

/** Traffic Stats' daily summaries (docs/original-behaviour.md#stats-summary). */
@Injectable()
export class StatsSummaryService {
  constructor(private readonly repository: StatsRepository) {}

  list(query: ListQuery): Promise<StatsSummary[]> {
    return this.repository.listSummaries(query);
  }

  /** The time of the newest summary (of `statName` when given), or null when there is none. */
  async lastSummaryTime(statName: string | undefined): Promise<Date | null> {
    const newest = await this.repository.newestSummary(statName);
    return newest?.summaryTime ?? null;
  }

  create(body: StatsSummaryBody): Promise<StatsSummary> {
    return this.repository.addSummary(body);
  }
}
