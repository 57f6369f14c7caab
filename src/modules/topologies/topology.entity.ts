import { Column, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';

/** A topology, named by its primary key as in the original; its nodes are `topology_cachegroup` rows. */
@Entity({ name: 'topology' })
@Index('ix_topology__last_updated', ['lastUpdated'])
export class Topology {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text' })
  description!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
