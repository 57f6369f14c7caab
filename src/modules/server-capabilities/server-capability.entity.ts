import { Column, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';

/** A capability a cache server may have and a delivery service may require, keyed by its name. */
@Entity({ name: 'server_capability' })
@Index('ix_server_capability__last_updated', ['lastUpdated'])
export class ServerCapability {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  name!: string;

  /** Shown from 4.1 on; `''` when none was given. */
  @Column({ type: 'text' })
  description!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
