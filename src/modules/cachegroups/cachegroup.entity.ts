import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { LAST_UPDATED, booleanColumn } from 'src/common/database/columns';
import { Type } from 'src/modules/types/type.entity';
import { CachegroupFallback } from './cachegroup-fallback.entity';
import { CachegroupLocalizationMethod } from './cachegroup-localization-method.entity';

@Entity({ name: 'cachegroup' })
@Unique('uq_cachegroup__name', ['name'])
@Unique('uq_cachegroup__short_name', ['shortName'])
@Index('ix_cachegroup__last_updated', ['lastUpdated'])
export class Cachegroup {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'short_name', type: 'varchar', length: 255 })
  shortName!: string;

  @Column({ type: 'double', nullable: true })
  latitude!: number | null;

  @Column({ type: 'double', nullable: true })
  longitude!: number | null;

  @Column({ name: 'parent_cachegroup_id', type: 'integer', nullable: true })
  parentCachegroupId!: number | null;

  @ManyToOne(() => Cachegroup, { onDelete: 'RESTRICT' })
  @JoinColumn({
    name: 'parent_cachegroup_id',
    foreignKeyConstraintName: 'fk_cachegroup__parent_cachegroup_id',
  })
  parentCachegroup?: Cachegroup | null;

  @Column({ name: 'secondary_parent_cachegroup_id', type: 'integer', nullable: true })
  secondaryParentCachegroupId!: number | null;

  @ManyToOne(() => Cachegroup, { onDelete: 'RESTRICT' })
  @JoinColumn({
    name: 'secondary_parent_cachegroup_id',
    foreignKeyConstraintName: 'fk_cachegroup__secondary_parent_cachegroup_id',
  })
  secondaryParentCachegroup?: Cachegroup | null;

  @Column({ name: 'type', type: 'integer' })
  typeId!: number;

  @ManyToOne(() => Type, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'type', foreignKeyConstraintName: 'fk_cachegroup__type' })
  type?: Type;

  @Column(booleanColumn({ name: 'fallback_to_closest', default: true }))
  fallbackToClosest!: boolean;

  @OneToMany(() => CachegroupLocalizationMethod, (method) => method.cachegroup)
  localizationMethods?: CachegroupLocalizationMethod[];

  @OneToMany(() => CachegroupFallback, (fallback) => fallback.primary)
  fallbacks?: CachegroupFallback[];

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
