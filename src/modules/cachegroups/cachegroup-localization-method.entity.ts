import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Cachegroup } from './cachegroup.entity';

/** One of CZ, DEEP_CZ, GEO enabled for a cache group. */
@Entity({ name: 'cachegroup_localization_method' })
@Unique('uq_cachegroup_localization_method__cachegroup__method', ['cachegroupId', 'method'])
export class CachegroupLocalizationMethod {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'cachegroup', type: 'integer' })
  cachegroupId!: number;

  @ManyToOne(() => Cachegroup, (cachegroup) => cachegroup.localizationMethods, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'cachegroup',
    foreignKeyConstraintName: 'fk_cachegroup_localization_method__cachegroup',
  })
  cachegroup?: Cachegroup;

  @Column({ type: 'varchar', length: 16 })
  method!: string;
}
