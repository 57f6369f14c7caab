import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { Type } from 'src/modules/types/type.entity';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { LAST_UPDATED } from 'src/common/database/columns';
import { bigintAsNumber } from 'src/common/database/transformers';

/**
 * A target of a steering delivery service (docs/original-behaviour.md#steering): the pair (deliveryservice,
 * target) is unique; both are delivery services, and `type` is a `steering_target` type
 * (STEERING_WEIGHT, STEERING_ORDER, STEERING_GEO_ORDER, STEERING_GEO_WEIGHT).
 */
@Entity({ name: 'steering_target' })
@Unique('uq_steering_target__deliveryservice__target', ['deliveryServiceId', 'targetId'])
@Index('ix_steering_target__last_updated', ['lastUpdated'])
@Index('ix_steering_target__target', ['targetId'])
export class SteeringTarget {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The steering delivery service. */
  @ForeignKey(() => DeliveryService, { name: 'fk_steering_target__deliveryservice', onDelete: 'CASCADE' })
  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  /** The delivery service steered to. */
  @ForeignKey(() => DeliveryService, { name: 'fk_steering_target__target', onDelete: 'CASCADE' })
  @Column({ name: 'target', type: 'integer' })
  targetId!: number;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  value!: number;

  @ForeignKey(() => Type, { name: 'fk_steering_target__type', onDelete: 'RESTRICT' })
  @Column({ name: 'type', type: 'integer' })
  typeId!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
