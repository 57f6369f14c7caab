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
import { Division } from 'src/modules/divisions/division.entity';

@Entity({ name: 'region' })
@Unique('uq_region__name', ['name'])
@Index('ix_region__last_updated', ['lastUpdated'])
export class Region {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'division', type: 'integer' })
  divisionId!: number;

  @ManyToOne(() => Division, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'division', foreignKeyConstraintName: 'fk_region__division' })
  division?: Division;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
