import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { Region } from 'src/modules/regions/region.entity';

@Entity({ name: 'phys_location' })
@Unique('uq_phys_location__name', ['name'])
@Unique('uq_phys_location__short_name', ['shortName'])
@Index('ix_phys_location__last_updated', ['lastUpdated'])
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

  @ManyToOne(() => Region, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'region', foreignKeyConstraintName: 'fk_phys_location__region' })
  region?: Region;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
