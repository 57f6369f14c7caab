import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Division } from 'src/modules/divisions/division.entity';

@Entity({ name: 'region' })
export class Region {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'division', type: 'integer' })
  divisionId!: number;

  @ManyToOne(() => Division)
  @JoinColumn({ name: 'division' })
  division?: Division;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
