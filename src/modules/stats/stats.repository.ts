import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { insertRow } from 'src/common/database/insert-rows';
import { getPlainMany } from 'src/common/database/plain-rows';
import { applyListQuery, type ListQuery } from 'src/common/list-query/list-query';
import type { StatsSummaryBody } from './dto/stats-summary.dto';
import { StatsSummary } from './stats-summary.entity';

/**
 * The stats_summary table, and what the statistics routes read of CDNs and delivery services: the
 * only file of the module that runs SQL (docs/architecture.md#data-access). The figures themselves
 * come from InfluxDB (influxdb.client.ts).
 */
@Injectable()
export class StatsRepository {
  constructor(
    @InjectRepository(StatsSummary) private readonly summaries: Repository<StatsSummary>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The page of daily summaries a list query asks for, as plain rows. */
  listSummaries(query: ListQuery): Promise<StatsSummary[]> {
    return getPlainMany(applyListQuery(this.summaries.createQueryBuilder('ss'), query));
  }

  /** The newest summary (of `statName` when given), or null when there is none. */
  newestSummary(statName: string | undefined): Promise<StatsSummary | null> {
    return this.summaries.findOne({
      where: statName === undefined ? {} : { statName },
      order: { summaryTime: 'DESC', id: 'DESC' },
    });
  }

  /** Adds a daily summary and answers it as stored. */
  async addSummary(body: StatsSummaryBody): Promise<StatsSummary> {
    const id = await insertRow(this.summaries.manager, this.summaries.target, body);
    return this.summaries.findOneByOrFail({ id });
  }

  /** Every CDN's name, in the database's order (by id). */
  async cdnNames(): Promise<string[]> {
    const rows: { name: string }[] = await this.dataSource.query('SELECT name FROM cdn ORDER BY id');
    return rows.map((r) => r.name);
  }

  /** Whether there is a CDN of that name. */
  async cdnExists(name: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 AS found FROM cdn WHERE name = ?', [name]);
    return rows.length > 0;
  }

  /** The tenant of the delivery service `xmlId`, or undefined when there is no such delivery service. */
  async deliveryServiceTenant(xmlId: string): Promise<number | undefined> {
    const found: { tenant_id: number | string }[] = await this.dataSource.query(
      'SELECT tenant_id FROM deliveryservice WHERE xml_id = ?',
      [xmlId],
    );
    return found.length === 0 ? undefined : Number(found[0].tenant_id);
  }

  /** The XML id of the delivery service `id`, or undefined when there is no such delivery service. */
  async deliveryServiceXmlId(id: number): Promise<string | undefined> {
    const rows: { xml_id: string }[] = await this.dataSource.query(
      'SELECT xml_id FROM deliveryservice WHERE id = ?',
      [id],
    );
    return rows.length > 0 ? rows[0].xml_id : undefined;
  }
}
