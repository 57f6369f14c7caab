import { Column, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A resolver address (IPv4/IPv6 address or CIDR), unique, of type RESOLVE4 or RESOLVE6. */
@Entity({ name: 'federation_resolver' })
export class FederationResolver {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'ip_address', type: 'varchar', length: 64 })
  ipAddress!: string;

  @Column({ name: 'type', type: 'integer' })
  typeId!: number;

  @UpdateDateColumn({ name: 'last_updated', type: 'datetime', precision: 6 })
  lastUpdated!: Date;
}
