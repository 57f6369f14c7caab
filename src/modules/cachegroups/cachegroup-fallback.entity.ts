import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Cachegroup } from './cachegroup.entity';

/** A backup cache group of a primary one, in `setOrder`. */
@Entity({ name: 'cachegroup_fallbacks' })
@Unique('uq_cachegroup_fallbacks__primary_cg__backup_cg', ['primaryId', 'backupId'])
export class CachegroupFallback {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'primary_cg', type: 'integer' })
  primaryId!: number;

  @ManyToOne(() => Cachegroup, (cachegroup) => cachegroup.fallbacks, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'primary_cg', foreignKeyConstraintName: 'fk_cachegroup_fallbacks__primary_cg' })
  primary?: Cachegroup;

  @Column({ name: 'backup_cg', type: 'integer' })
  backupId!: number;

  @ManyToOne(() => Cachegroup, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'backup_cg', foreignKeyConstraintName: 'fk_cachegroup_fallbacks__backup_cg' })
  backup?: Cachegroup;

  @Column({ name: 'set_order', type: 'integer' })
  setOrder!: number;
}
