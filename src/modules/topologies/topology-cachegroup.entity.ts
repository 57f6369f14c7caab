import { Column, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn, ForeignKey } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { Cachegroup } from 'src/modules/cachegroups/cachegroup.entity';
import { Topology } from './topology.entity';

/** A node of a topology: a cache group, by name, at most once per topology. */
@Entity({ name: 'topology_cachegroup' })
@Unique('uq_topology_cachegroup__topology__cachegroup', ['topology', 'cachegroup'])
@Index('ix_topology_cachegroup__cachegroup', ['cachegroup'])
export class TopologyCachegroup {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  @ForeignKey(() => Topology, (t: Topology) => t.name, {
    name: 'fk_topology_cachegroup__topology',
    onDelete: 'CASCADE',
    onUpdate: 'CASCADE',
  })
  topology!: string;

  @Column({ type: 'varchar', length: 255 })
  @ForeignKey(() => Cachegroup, (c: Cachegroup) => c.name, {
    name: 'fk_topology_cachegroup__cachegroup',
    onDelete: 'RESTRICT',
    onUpdate: 'CASCADE',
  })
  cachegroup!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
