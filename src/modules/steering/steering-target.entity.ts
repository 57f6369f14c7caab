import { Column, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { bigintAsNumber } from 'src/common/database/transformers';

/**
 * A target of a steering delivery service (docs/original-behaviour.md#steering): the pair (deliveryservice,
 * target) is unique; both are delivery services, and `type` is a `steering_target` type
 * (STEERING_WEIGHT, STEERING_ORDER, STEERING_GEO_ORDER, STEERING_GEO_WEIGHT).
 */
@Entity({ name: 'steering_target' })
export class SteeringTarget {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The steering delivery service. */
  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  /** The delivery service steered to. */
  @Column({ name: 'target', type: 'integer' })
  targetId!: number;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  value!: number;

  @Column({ name: 'type', type: 'integer' })
  typeId!: number;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
