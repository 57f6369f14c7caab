import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { datetimeColumn } from 'src/common/database/columns';

/** One of Traffic Stats' daily summaries of a stat, for a CDN and a delivery service (or `all`). */
@Entity({ name: 'stats_summary' })
export class StatsSummary {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'cdn_name', type: 'varchar', length: 255 })
  cdnName!: string;

  @Column({ name: 'deliveryservice_name', type: 'varchar', length: 255 })
  deliveryServiceName!: string;

  @Column({ name: 'stat_name', type: 'varchar', length: 255 })
  statName!: string;

  @Column({ name: 'stat_value', type: 'double' })
  statValue!: number;

  @Column(datetimeColumn({ name: 'summary_time' }))
  summaryTime!: Date;

  /** `YYYY-MM-DD`. */
  @Column({ name: 'stat_date', type: 'date', nullable: true })
  statDate!: string | null;
}
