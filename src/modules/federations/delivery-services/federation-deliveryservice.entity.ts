import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { Federation } from 'src/modules/federations/federation.entity';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { LAST_UPDATED } from 'src/common/database/columns';

/** A delivery service assigned to a federation (unique per pair). */
@Entity({ name: 'federation_deliveryservice' })
@Unique('uq_federation_deliveryservice__federation__deliveryservice', ['federationId', 'deliveryServiceId'])
@Index('ix_federation_deliveryservice__deliveryservice', ['deliveryServiceId'])
@Index('ix_federation_deliveryservice__last_updated', ['lastUpdated'])
export class FederationDeliveryService {
  @PrimaryGeneratedColumn()
  id!: number;

  @ForeignKey(() => Federation, { name: 'fk_federation_deliveryservice__federation', onDelete: 'CASCADE' })
  @Column({ name: 'federation', type: 'integer' })
  federationId!: number;

  @ForeignKey(() => DeliveryService, {
    name: 'fk_federation_deliveryservice__deliveryservice',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
