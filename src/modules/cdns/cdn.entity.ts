import { Column, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED, booleanColumn } from 'src/common/database/columns';

@Entity({ name: 'cdn' })
@Unique('uq_cdn__name', ['name'])
@Unique('uq_cdn__domain_name', ['domainName'])
@Index('ix_cdn__last_updated', ['lastUpdated'])
export class Cdn {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'domain_name', type: 'varchar', length: 255 })
  domainName!: string;

  @Column(booleanColumn({ name: 'dnssec_enabled', default: false }))
  dnssecEnabled!: boolean;

  /** Seconds; overrides every delivery service TTL of the CDN (API 4.1+). */
  @Column({ name: 'ttl_override', type: 'integer', nullable: true })
  ttlOverride!: number | null;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
