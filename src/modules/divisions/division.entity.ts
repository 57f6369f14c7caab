import { Column, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';

@Entity({ name: 'division' })
@Unique('uq_division__name', ['name'])
@Index('ix_division__last_updated', ['lastUpdated'])
export class Division {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
