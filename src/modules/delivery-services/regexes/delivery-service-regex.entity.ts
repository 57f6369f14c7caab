import {
  Column,
  Entity,
  ForeignKey,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { dialectDefault, LAST_UPDATED } from 'src/common/database/columns';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { Regex } from './regex.entity';

/** Links a regex to a delivery service at a set number (priority). */
@Entity({ name: 'deliveryservice_regex' })
@Unique('uq_deliveryservice_regex__deliveryservice__regex', ['deliveryServiceId', 'regexId'])
@Index('ix_deliveryservice_regex__regex', ['regexId'])
@Index('ix_deliveryservice_regex__last_updated', ['lastUpdated'])
export class DeliveryServiceRegex {
  @PrimaryGeneratedColumn()
  id!: number;

  @ForeignKey(() => DeliveryService, {
    name: 'fk_deliveryservice_regex__deliveryservice',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  @Column({ name: 'regex', type: 'integer' })
  regexId!: number;

  @ManyToOne(() => Regex, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'regex', foreignKeyConstraintName: 'fk_deliveryservice_regex__regex' })
  regex?: Regex;

  @Column({ name: 'set_number', type: 'integer', nullable: true, default: 0 })
  setNumber!: number | null;

  /**
   * Set by the database on insert and update (on SQLite by triggers: the column, added to an existing
   * table, has the epoch as its default), for the conditional GET of deliveryservices_regexes.
   */
  @UpdateDateColumn({
    ...LAST_UPDATED,
    default: dialectDefault({ mysql: 'CURRENT_TIMESTAMP(6)', sqlite: "'1970-01-01 00:00:00'" }),
  })
  lastUpdated!: Date;
}
