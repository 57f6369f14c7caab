import { Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';

/** A service category a delivery service may name; its name is its key, as in the original. */
@Entity({ name: 'service_category' })
@Index('ix_service_category__last_updated', ['lastUpdated'])
export class ServiceCategory {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  name!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
