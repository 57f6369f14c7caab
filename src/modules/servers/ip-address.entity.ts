import {
  Column,
  Entity,
  ForeignKey,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { Server } from './server.entity';
import { booleanColumn } from 'src/common/database/columns';
import { ServerInterface } from './server-interface.entity';

/** An IP address (or CIDR) of a server interface; service addresses are the ones clients reach. */
@Entity({ name: 'ip_address' })
@Unique('uq_ip_address__interface__address', ['interfaceId', 'address'])
@Index('ix_ip_address__server', ['serverId'])
export class IpAddress {
  @PrimaryGeneratedColumn()
  id!: number;

  @ForeignKey(() => Server, { name: 'fk_ip_address__server', onDelete: 'CASCADE' })
  @Column({ name: 'server', type: 'integer' })
  serverId!: number;

  @Column({ name: 'interface', type: 'integer' })
  interfaceId!: number;

  @ManyToOne(() => ServerInterface, (serverInterface) => serverInterface.ipAddresses, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'interface', foreignKeyConstraintName: 'fk_ip_address__interface' })
  serverInterface?: ServerInterface;

  @Column({ type: 'varchar', length: 64 })
  address!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  gateway!: string | null;

  @Column(booleanColumn({ name: 'service_address', default: false }))
  serviceAddress!: boolean;
}
