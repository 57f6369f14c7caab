import { Column, Entity, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';

/**
 * A named point (docs/original-behaviour.md#coordinates). Cache groups keep their own latitude and
 * longitude here; origins may name a coordinate (docs/decisions.md#d81).
 */
@Entity({ name: 'coordinate' })
@Unique('uq_coordinate__name', ['name'])
@Index('ix_coordinate__last_updated', ['lastUpdated'])
export class Coordinate {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'double', default: 0 })
  latitude!: number;

  @Column({ type: 'double', default: 0 })
  longitude!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
