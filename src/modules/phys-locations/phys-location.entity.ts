import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Region } from 'src/modules/regions/region.entity';

@Entity({ name: 'phys_location' })
export class PhysLocation {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'short_name', type: 'varchar', length: 255 })
  shortName!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  address!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  city!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  state!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  zip!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  poc!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  phone!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  email!: string | null;

  @Column({ type: 'text', nullable: true })
  comments!: string | null;

  @Column({ name: 'region', type: 'integer' })
  regionId!: number;

  @ManyToOne(() => Region)
  @JoinColumn({ name: 'region' })
  region?: Region;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
