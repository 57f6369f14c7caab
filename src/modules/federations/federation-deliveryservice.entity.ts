import { Column, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A delivery service assigned to a federation (unique per pair). */
@Entity({ name: 'federation_deliveryservice' })
export class FederationDeliveryService {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'federation', type: 'integer' })
  federationId!: number;

  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
