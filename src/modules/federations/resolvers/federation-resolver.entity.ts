import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { Type } from 'src/modules/types/type.entity';
import { LAST_UPDATED } from 'src/common/database/columns';

/** A resolver address (IPv4/IPv6 address or CIDR), unique, of type RESOLVE4 or RESOLVE6. */
@Entity({ name: 'federation_resolver' })
@Unique('uq_federation_resolver__ip_address', ['ipAddress'])
@Index('ix_federation_resolver__last_updated', ['lastUpdated'])
export class FederationResolver {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'ip_address', type: 'varchar', length: 64 })
  ipAddress!: string;

  @ForeignKey(() => Type, { name: 'fk_federation_resolver__type', onDelete: 'CASCADE' })
  @Column({ name: 'type', type: 'integer' })
  typeId!: number;

  @UpdateDateColumn(LAST_UPDATED)
  lastUpdated!: Date;
}
