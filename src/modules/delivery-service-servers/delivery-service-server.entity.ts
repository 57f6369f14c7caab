import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { Server } from 'src/modules/servers/server.entity';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';

/** A server assigned to a delivery service. */
@Entity({ name: 'deliveryservice_server' })
@Unique('uq_deliveryservice_server__deliveryservice__server', ['deliveryServiceId', 'serverId'])
@Index('ix_deliveryservice_server__last_updated', ['lastUpdated'])
@Index('ix_deliveryservice_server__server', ['serverId'])
export class DeliveryServiceServer {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  @ManyToOne(() => DeliveryService, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'deliveryservice',
    foreignKeyConstraintName: 'fk_deliveryservice_server__deliveryservice',
  })
  deliveryService?: DeliveryService;

  @Column({ name: 'server', type: 'integer' })
  serverId!: number;

  @ManyToOne(() => Server, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server', foreignKeyConstraintName: 'fk_deliveryservice_server__server' })
  server?: Server;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
