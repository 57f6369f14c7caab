import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { StatsSummaryBody } from './dto/stats-summary.body';
import { StatsSummary } from './stats-summary.entity';

/** Traffic Stats' daily summaries (docs/original-behaviour.md#stats-summary). */
@Injectable()
export class StatsSummaryService {
  constructor(@InjectRepository(StatsSummary) private readonly summaries: Repository<StatsSummary>) {}

  list(query: ListQuery): Promise<StatsSummary[]> {
    return getPlainMany(applyListQuery(this.summaries.createQueryBuilder('ss'), query));
  }

  /** The time of the newest summary (of `statName` when given), or null when there is none. */
  async lastSummaryTime(statName: string | undefined): Promise<Date | null> {
    const newest = await this.summaries.findOne({
      where: statName === undefined ? {} : { statName },
      order: { summaryTime: 'DESC', id: 'DESC' },
    });
    return newest?.summaryTime ?? null;
  }

  async create(body: StatsSummaryBody): Promise<StatsSummary> {
    const id = await insertRow(this.summaries.manager, this.summaries.target, body);
    return this.summaries.findOneByOrFail({ id });
  }
}
