import { Column, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';

/** A federation: a CNAME and a TTL for delivery services and users (docs/original-behaviour.md#schema). */
@Entity({ name: 'federation' })
@Index('ix_federation__last_updated', ['lastUpdated'])
export class Federation {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 1024 })
  cname!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'integer' })
  ttl!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
