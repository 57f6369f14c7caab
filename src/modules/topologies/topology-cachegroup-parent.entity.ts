import { Column, Entity, ForeignKey, Index, PrimaryColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { TopologyCachegroup } from './topology-cachegroup.entity';

/** A node's parent in its topology: rank 1 is the primary parent, 2 the secondary. */
@Entity({ name: 'topology_cachegroup_parents' })
@Unique('uq_topology_cachegroup_parents__child__rank', ['child', 'rank'])
@Index('ix_topology_cachegroup_parents__parent', ['parent'])
export class TopologyCachegroupParent {
  @PrimaryColumn({ type: 'integer' })
  @ForeignKey(() => TopologyCachegroup, {
    name: 'fk_topology_cachegroup_parents__child',
    onDelete: 'CASCADE',
  })
  child!: number;

  @PrimaryColumn({ type: 'integer' })
  @ForeignKey(() => TopologyCachegroup, {
    name: 'fk_topology_cachegroup_parents__parent',
    onDelete: 'CASCADE',
  })
  parent!: number;

  @Column({ type: 'integer' })
  rank!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
