import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Type } from 'src/modules/types/type.entity';

/** A regular expression of a delivery service's match list (HOST_REGEXP, PATH_REGEXP, …). */
@Entity({ name: 'regex' })
export class Regex {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'text' })
  pattern!: string;

  @Column({ name: 'type', type: 'integer' })
  typeId!: number;

  @ManyToOne(() => Type)
  @JoinColumn({ name: 'type' })
  type?: Type;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
