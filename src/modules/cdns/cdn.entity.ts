import { Column, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'cdn' })
export class Cdn {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'domain_name', type: 'varchar', length: 255 })
  domainName!: string;

  @Column({ name: 'dnssec_enabled', type: 'boolean', default: false })
  dnssecEnabled!: boolean;

  /** Seconds; overrides every delivery service TTL of the CDN (API 4.1+). */
  @Column({ name: 'ttl_override', type: 'integer', nullable: true })
  ttlOverride!: number | null;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
