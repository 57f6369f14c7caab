import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Server } from 'src/modules/servers/server.entity';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';

/** A server assigned to a delivery service. */
@Entity({ name: 'deliveryservice_server' })
export class DeliveryServiceServer {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  @ManyToOne(() => DeliveryService, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'deliveryservice' })
  deliveryService?: DeliveryService;

  @Column({ name: 'server', type: 'integer' })
  serverId!: number;

  @ManyToOne(() => Server, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server' })
  server?: Server;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
