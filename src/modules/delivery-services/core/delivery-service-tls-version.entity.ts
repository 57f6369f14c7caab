import { Column, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';

/** A TLS version a delivery service explicitly supports. */
@Entity({ name: 'deliveryservice_tls_version' })
@Unique('uq_deliveryservice_tls_version__deliveryservice__tls_version', ['deliveryServiceId', 'tlsVersion'])
export class DeliveryServiceTlsVersion {
  @PrimaryGeneratedColumn()
  id!: number;

  @ForeignKey(() => DeliveryService, {
    name: 'fk_deliveryservice_tls_version__deliveryservice',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  @Column({ name: 'tls_version', type: 'varchar', length: 16 })
  tlsVersion!: string;
}
