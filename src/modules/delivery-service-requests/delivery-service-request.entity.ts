import {
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { User } from 'src/modules/users/user.entity';

/**
 * A delivery service request (docs/original-behaviour.md#deliveryservice-requests): the requested
 * and original delivery services are JSON text; `xmlId` and `tenantId` are those of the delivery
 * service the request is about (docs/decisions.md#d84).
 */
@Entity({ name: 'deliveryservice_request' })
@Index('ix_deliveryservice_request__xml_id', ['xmlId'])
@Index('ix_deliveryservice_request__last_updated', ['lastUpdated'])
export class DeliveryServiceRequest {
  @PrimaryGeneratedColumn()
  id!: number;

  @ForeignKey(() => User, { name: 'fk_deliveryservice_request__assignee_id', onDelete: 'SET NULL' })
  @Column({ name: 'assignee_id', type: 'integer', nullable: true })
  assigneeId!: number | null;

  @ForeignKey(() => User, { name: 'fk_deliveryservice_request__author_id', onDelete: 'CASCADE' })
  @Column({ name: 'author_id', type: 'integer' })
  authorId!: number;

  @Column({ name: 'change_type', type: 'varchar', length: 8 })
  changeType!: string;

  @CreateDateColumn({ ...LAST_UPDATED, name: 'created_at' })
  createdAt!: Date;

  @ForeignKey(() => User, { name: 'fk_deliveryservice_request__last_edited_by_id', onDelete: 'SET NULL' })
  @Column({ name: 'last_edited_by_id', type: 'integer', nullable: true })
  lastEditedById!: number | null;

  /** The requested delivery service (JSON), for `create` and `update`. */
  @Column({ name: 'deliveryservice', type: 'text', nullable: true })
  requested!: string | null;

  /** The original delivery service (JSON): given for `delete`, kept when an `update` closes. */
  @Column({ type: 'text', nullable: true })
  original!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ name: 'xml_id', type: 'varchar', length: 48 })
  xmlId!: string;

  @Column({ name: 'tenant_id', type: 'integer', nullable: true })
  tenantId!: number | null;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
