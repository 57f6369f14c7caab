import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { LAST_UPDATED } from 'src/common/database/columns';
import { bigintAsNumber } from 'src/common/database/transformers';
import { Cachegroup } from 'src/modules/cachegroups/cachegroup.entity';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { Type } from 'src/modules/types/type.entity';

/**
 * A static DNS entry of a delivery service (docs/original-behaviour.md#static-dns-entries): Traffic
 * Router answers `host` under the delivery service's domain with `address`, as a record of `type`
 * (A_RECORD, AAAA_RECORD, CNAME_RECORD, …) for `ttl` seconds. The cache group has no effect.
 */
@Entity({ name: 'staticdnsentry' })
@Unique('uq_staticdnsentry__host__address__deliveryservice__cachegroup', [
  'host',
  'address',
  'deliveryServiceId',
  'cachegroupId',
])
@Index('ix_staticdnsentry__deliveryservice', ['deliveryServiceId'])
@Index('ix_staticdnsentry__cachegroup', ['cachegroupId'])
@Index('ix_staticdnsentry__type', ['typeId'])
@Index('ix_staticdnsentry__last_updated', ['lastUpdated'])
export class StaticDnsEntry {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  host!: string;

  @Column({ type: 'varchar', length: 255 })
  address!: string;

  @ForeignKey(() => Type, { name: 'fk_staticdnsentry__type', onDelete: 'RESTRICT' })
  @Column({ name: 'type', type: 'integer' })
  typeId!: number;

  @Column({ type: 'bigint', default: 3600, transformer: bigintAsNumber })
  ttl!: number;

  @ForeignKey(() => DeliveryService, { name: 'fk_staticdnsentry__deliveryservice', onDelete: 'CASCADE' })
  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  @ForeignKey(() => Cachegroup, { name: 'fk_staticdnsentry__cachegroup', onDelete: 'RESTRICT' })
  @Column({ name: 'cachegroup', type: 'integer', nullable: true })
  cachegroupId!: number | null;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
