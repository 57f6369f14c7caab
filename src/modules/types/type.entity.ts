import { Column, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';

/** A classification of the rows of another table (`useInTable`): server types, cache group types, … */
@Entity({ name: 'type' })
@Unique('uq_type__name', ['name'])
@Index('ix_type__last_updated', ['lastUpdated'])
@Index('ix_type__use_in_table', ['useInTable'])
export class Type {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ name: 'use_in_table', type: 'varchar', length: 64 })
  useInTable!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
