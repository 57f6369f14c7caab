import {
  Column,
  Entity,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Type } from 'src/modules/types/type.entity';
import { CachegroupFallback } from './cachegroup-fallback.entity';
import { CachegroupLocalizationMethod } from './cachegroup-localization-method.entity';

@Entity({ name: 'cachegroup' })
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

  @ManyToOne(() => Cachegroup)
  @JoinColumn({ name: 'parent_cachegroup_id' })
  parentCachegroup?: Cachegroup | null;

  @Column({ name: 'secondary_parent_cachegroup_id', type: 'integer', nullable: true })
  secondaryParentCachegroupId!: number | null;

  @ManyToOne(() => Cachegroup)
  @JoinColumn({ name: 'secondary_parent_cachegroup_id' })
  secondaryParentCachegroup?: Cachegroup | null;

  @Column({ name: 'type', type: 'integer' })
  typeId!: number;

  @ManyToOne(() => Type)
  @JoinColumn({ name: 'type' })
  type?: Type;

  @Column({ name: 'fallback_to_closest', type: 'boolean', default: true })
  fallbackToClosest!: boolean;

  @OneToMany(() => CachegroupLocalizationMethod, (method) => method.cachegroup)
  localizationMethods?: CachegroupLocalizationMethod[];

  @OneToMany(() => CachegroupFallback, (fallback) => fallback.primary)
  fallbacks?: CachegroupFallback[];

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
