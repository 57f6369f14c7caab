import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A query parameter that takes part in consistent hashing. */
@Entity({ name: 'deliveryservice_consistent_hash_query_param' })
export class ConsistentHashQueryParam {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'deliveryservice_id', type: 'integer' })
  deliveryServiceId!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;
}
