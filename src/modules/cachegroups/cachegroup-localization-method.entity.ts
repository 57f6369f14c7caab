import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Cachegroup } from './cachegroup.entity';

/** One of CZ, DEEP_CZ, GEO enabled for a cache group. */
@Entity({ name: 'cachegroup_localization_method' })
export class CachegroupLocalizationMethod {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'cachegroup', type: 'integer' })
  cachegroupId!: number;

  @ManyToOne(() => Cachegroup, (cachegroup) => cachegroup.localizationMethods, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'cachegroup' })
  cachegroup?: Cachegroup;

  @Column({ type: 'varchar', length: 16 })
  method!: string;
}
