import { Entity, ForeignKey, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { ServerCapability } from './server-capability.entity';

/** A delivery service requires a capability of the caches that serve it. */
@Entity({ name: 'deliveryservices_required_capability' })
@Index('ix_deliveryservices_required_capability__last_updated', ['lastUpdated'])
@Index('ix_deliveryservices_required_capability__required_capability', ['requiredCapability'])
export class DeliveryServiceRequiredCapability {
  @ForeignKey(() => DeliveryService, {
    name: 'fk_deliveryservices_required_capability__deliveryservice_id',
    onDelete: 'CASCADE',
  })
  @PrimaryColumn({ name: 'deliveryservice_id', type: 'integer' })
  deliveryServiceId!: number;

  @ForeignKey(() => ServerCapability, (capability) => capability.name, {
    name: 'fk_deliveryservices_required_capability__required_capability',
    onDelete: 'RESTRICT',
    onUpdate: 'CASCADE',
  })
  @PrimaryColumn({ name: 'required_capability', type: 'varchar', length: 255 })
  requiredCapability!: string;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
