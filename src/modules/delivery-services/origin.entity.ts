import { Column, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** An origin of a delivery service; the primary one mirrors `orgServerFqdn`. */
@Entity({ name: 'origin' })
export class Origin {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 255 })
  fqdn!: string;

  @Column({ type: 'varchar', length: 5 })
  protocol!: string;

  @Column({ name: 'is_primary', type: 'boolean', default: false })
  isPrimary!: boolean;

  @Column({ type: 'integer', nullable: true })
  port!: number | null;

  @Column({ name: 'deliveryservice', type: 'integer' })
  deliveryServiceId!: number;

  @Column({ name: 'tenant', type: 'integer', nullable: true })
  tenantId!: number | null;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
