import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A TLS version a delivery service explicitly supports. */
@Entity({ name: 'deliveryservice_tls_version' })
export class DeliveryServiceTlsVersion {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  @Column({ name: 'tls_version', type: 'varchar', length: 16 })
  tlsVersion!: string;
}
