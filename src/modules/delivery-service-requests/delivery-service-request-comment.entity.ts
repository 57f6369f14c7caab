import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { User } from 'src/modules/users/user.entity';
import { DeliveryServiceRequest } from './delivery-service-request.entity';

/** A comment on a delivery service request (docs/original-behaviour.md#deliveryservice-request-comments). */
@Entity({ name: 'deliveryservice_request_comment' })
@Index('ix_deliveryservice_request_comment__deliveryservice_request_id', ['deliveryServiceRequestId'])
@Index('ix_deliveryservice_request_comment__last_updated', ['lastUpdated'])
export class DeliveryServiceRequestComment {
  @PrimaryGeneratedColumn()
  id!: number;

  @ForeignKey(() => User, { name: 'fk_deliveryservice_request_comment__author_id', onDelete: 'CASCADE' })
  @Column({ name: 'author_id', type: 'integer' })
  authorId!: number;

  @ForeignKey(() => DeliveryServiceRequest, {
    name: 'fk_deliveryservice_request_comment__deliveryservice_request_id',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'deliveryservice_request_id', type: 'integer' })
  deliveryServiceRequestId!: number;

  @Column({ type: 'text' })
  value!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
