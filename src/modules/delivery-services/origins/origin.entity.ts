import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { Tenant } from 'src/modules/tenants/tenant.entity';
import { Cachegroup } from 'src/modules/cachegroups/cachegroup.entity';
import { Coordinate } from 'src/modules/coordinates/coordinate.entity';
import { Profile } from 'src/modules/profiles/profile.entity';
import { DeliveryService } from 'src/modules/delivery-services/delivery-service.entity';
import { LAST_UPDATED, booleanColumn } from 'src/common/database/columns';

/**
 * An origin of a delivery service; the primary one mirrors `orgServerFqdn`, the others are written
 * through `origins` (docs/original-behaviour.md#origins).
 */
@Entity({ name: 'origin' })
@Unique('uq_origin__name', ['name'])
@Index('ix_origin__deliveryservice', ['deliveryServiceId'])
@Index('ix_origin__last_updated', ['lastUpdated'])
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

  @Column({ name: 'ip_address', type: 'varchar', length: 64, nullable: true })
  ipAddress!: string | null;

  @Column({ name: 'ip6_address', type: 'varchar', length: 64, nullable: true })
  ip6Address!: string | null;

  @ForeignKey(() => Cachegroup, { name: 'fk_origin__cachegroup', onDelete: 'RESTRICT' })
  @Column({ name: 'cachegroup', type: 'integer', nullable: true })
  cachegroupId!: number | null;

  @ForeignKey(() => Coordinate, { name: 'fk_origin__coordinate', onDelete: 'RESTRICT' })
  @Column({ name: 'coordinate', type: 'integer', nullable: true })
  coordinateId!: number | null;

  @ForeignKey(() => Profile, { name: 'fk_origin__profile', onDelete: 'RESTRICT' })
  @Column({ name: 'profile', type: 'integer', nullable: true })
  profileId!: number | null;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
