import { Column, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';

/** A query parameter that takes part in consistent hashing. */
@Entity({ name: 'deliveryservice_consistent_hash_query_param' })
@Unique('uq_h_3c1fe7ebe2b0cb93ad177b6a5f2f5f9ca8e855f5', ['deliveryServiceId', 'name'])
export class ConsistentHashQueryParam {
  @PrimaryGeneratedColumn()
  id!: number;

  @ForeignKey(() => DeliveryService, {
    name: 'fk_h_ca0fae99242812bc7b0be14f53ebcc45f266f108',
    onDelete: 'CASCADE',
  })
  @Column({ name: 'deliveryservice_id', type: 'integer' })
  deliveryServiceId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;
}
