import { Column, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';

/** A server status (ONLINE, OFFLINE, REPORTED, ADMIN_DOWN, PRE_PROD, CCR_IGNORE, …). */
@Entity({ name: 'status' })
@Unique('uq_status__name', ['name'])
@Index('ix_status__last_updated', ['lastUpdated'])
export class Status {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
