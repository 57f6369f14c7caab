import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { Tenant } from 'src/modules/tenants/tenant.entity';
import { DeliveryService } from './delivery-service.entity';
import { LAST_UPDATED, booleanColumn } from 'src/common/database/columns';

/** An origin of a delivery service; the primary one mirrors `orgServerFqdn`. */
@Entity({ name: 'origin' })
@Unique('uq_origin__name', ['name'])
@Index('ix_origin__deliveryservice', ['deliveryServiceId'])
export class Origin {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 255 })
  fqdn!: string;

  @Column({ type: 'varchar', length: 5 })
  protocol!: string;

  @Column(booleanColumn({ name: 'is_primary', default: false }))
  isPrimary!: boolean;

  @Column({ type: 'integer', nullable: true })
  port!: number | null;

  @ForeignKey(() => DeliveryService, { name: 'fk_origin__deliveryservice', onDelete: 'CASCADE' })
  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  @ForeignKey(() => Tenant, { name: 'fk_origin__tenant', onDelete: 'RESTRICT' })
  @Column({ name: 'tenant', type: 'integer', nullable: true })
  tenantId!: number | null;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
