import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Regex } from './regex.entity';

/** Links a regex to a delivery service at a set number (priority). */
@Entity({ name: 'deliveryservice_regex' })
export class DeliveryServiceRegex {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  @Column({ name: 'regex', type: 'integer' })
  regexId!: number;

  @ManyToOne(() => Regex, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'regex' })
  regex?: Regex;

  @Column({ name: 'set_number', type: 'integer', nullable: true })
  setNumber!: number | null;
}
